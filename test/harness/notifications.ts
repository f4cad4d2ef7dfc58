import type { INodeCredentials, INodeParameters } from 'n8n-workflow';

import { cashoutControl } from '../../nodes/PaymentsService/trigger/notification/authenticity';
import type { Sandbox } from '../sandbox';
import type { WorkflowJson } from './engine';
import { PACKAGE_NAME } from './packageInfo';
import { CREDENTIAL_IDS } from './fixtures';

export const NOTIFICATION_TRIGGER = 'Payments Service Notification Trigger';

/**
 * A workflow with the Payments Service Notification Trigger followed by a No Op node: version 1
 * (saved workflows) with both credentials, or version 2 with the one credential its Notifications
 * choice uses.
 */
export function notificationWorkflow(
	parameters: INodeParameters,
	webhookId = 'b8f1c3de-5a7e-4f0a-9c21-6d2f1e0a7b11',
	typeVersion = 1,
): WorkflowJson {
	const both = {
		paymentsServiceDepositApi: { id: CREDENTIAL_IDS.paymentsServiceDepositApi, name: 'deposit' },
		paymentsServiceCashoutApi: { id: CREDENTIAL_IDS.paymentsServiceCashoutApi, name: 'cashout' },
	};
	const credentials: INodeCredentials =
		typeVersion === 1
			? both
			: parameters.notifications === 'cashouts'
				? { paymentsServiceCashoutApi: both.paymentsServiceCashoutApi }
				: { paymentsServiceDepositApi: both.paymentsServiceDepositApi };
	return {
		id: 'wf-notifications',
		name: 'Notification trigger test',
		nodes: [
			{
				id: 'notification-trigger',
				name: NOTIFICATION_TRIGGER,
				type: `${PACKAGE_NAME}.paymentsServiceNotificationTrigger`,
				typeVersion,
				position: [0, 0],
				webhookId,
				parameters,
				credentials,
			},
			{
				id: 'noop',
				name: 'Then',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
			},
		],
		connections: { [NOTIFICATION_TRIGGER]: { main: [[{ node: 'Then', type: 'main', index: 0 }]] } },
	};
}

/** A deposit notification body, as the service sends it (service rules §10). */
export function depositNotification(depositId: number | string): {
	contentType: string;
	body: string;
} {
	return { contentType: 'application/json', body: JSON.stringify({ deposit_id: depositId }) };
}

/** A cashout notification body, as the service sends it (service rules §10); `fields` override. */
export function cashoutNotification(fields: Record<string, string | number>): {
	contentType: string;
	body: string;
} {
	const form = new URLSearchParams();
	const all = {
		date: '2026-11-02 12:00:00',
		bank_reference_id: '',
		comments: '',
		external_id: '',
		control: 'C0FFEE',
		cashout_id: '',
		status_reason: '',
		...fields,
	};
	for (const [name, value] of Object.entries(all)) form.append(name, String(value));
	return { contentType: 'application/x-www-form-urlencoded', body: form.toString() };
}

/** Every secret of the sandbox's credentials: none may appear in an answer or a log line. */
export function sandboxSecrets(sandbox: Sandbox): string[] {
	const { credentials } = sandbox;
	return [
		credentials.deposit.apiKey,
		credentials.deposit.apiSignature,
		credentials.cashout.login,
		credentials.cashout.pass,
		credentials.cashout.apiSignature,
		credentials.session.secretKey,
		credentials.readOnlyKey,
	];
}

/** POSTs `body` to `url` as the service would: the answer's status and its JSON (undefined: empty). */
export async function postNotification(
	url: string,
	contentType: string,
	body: string,
): Promise<{ status: number; json: unknown }> {
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': contentType },
		body,
	});
	const text = await answer.text();
	return { status: answer.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/**
 * A cashout notification as the service sends it (a form), for `payout`, dated `at` (epoch ms, sent
 * as GMT), its `control` signed with the sandbox's cashout API signature (service rules §10).
 */
export function cashoutNotificationForm(
	sandbox: Sandbox,
	payout: { idCashout: number; externalId: string },
	at: number,
): string {
	return new URLSearchParams({
		date: new Date(at).toISOString().slice(0, 19).replace('T', ' '),
		bank_reference_id: '',
		comments: '',
		external_id: payout.externalId,
		control: cashoutControl(sandbox.credentials.cashout.apiSignature, payout.externalId),
		cashout_id: String(payout.idCashout),
		status_reason: '',
	}).toString();
}
