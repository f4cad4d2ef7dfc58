import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

import { credentialsShown } from '../harness/credentialsShown';
import { PaymentsService } from '../../nodes/PaymentsService/PaymentsService.node';
import { PaymentsServiceNotificationTrigger } from '../../nodes/PaymentsService/PaymentsServiceNotificationTrigger.node';
import { PaymentsServiceTrigger } from '../../nodes/PaymentsService/PaymentsServiceTrigger.node';

/** The Notification Trigger's description at `version` (1: saved workflows, 2: new nodes). */
function notificationTrigger(version: number): INodeTypeDescription {
	return (new PaymentsServiceNotificationTrigger().getNodeType(version) as INodeType).description;
}

const NODES: INodeTypeDescription[] = [
	new PaymentsService().description,
	new PaymentsServiceTrigger().description,
	notificationTrigger(1),
];

/**
 * The parameters n8n's editor treats as a node's authentication fields: those named in a
 * credential's `show` rule (`getNodeAuthFields` in n8n's editor-ui nodeTypesUtils). One of them
 * whose every value some credential lists becomes the authentication selector: the editor removes
 * it from the parameter panel and puts it in the credential dialog.
 */
function authFields(node: INodeTypeDescription): string[] {
	const names = new Set(node.properties.map((property) => property.name));
	return (node.credentials ?? []).flatMap((credential) =>
		Object.keys(credential.displayOptions?.show ?? {}).filter((key) => names.has(key)),
	);
}

const notificationCredentials = (notifications: string, version = 1): string[] =>
	credentialsShown(notificationTrigger(version), { notifications }, version);

describe('credentials as the n8n editor reads them', () => {
	test.each(NODES.map((node) => [node.displayName, node]))(
		'%s: no parameter is taken for an authentication selector (all stay in the panel)',
		(_name, node) => {
			expect(authFields(node)).toEqual([]);
		},
	);

	test('a node that can show two credentials labels each', () => {
		for (const node of NODES.filter((candidate) => (candidate.credentials ?? []).length > 1)) {
			for (const credential of node.credentials ?? [])
				expect([node.displayName, credential.name, credential.displayName]).toEqual([
					node.displayName,
					credential.name,
					expect.stringMatching(/ Credential$/),
				]);
		}
	});

	test('the notification trigger asks for the deposit key, the cashout key or both, as chosen', () => {
		expect(notificationCredentials('deposits')).toEqual(['paymentsServiceDepositApi']);
		expect(notificationCredentials('cashouts')).toEqual(['paymentsServiceCashoutApi']);
		expect(notificationCredentials('both')).toEqual([
			'paymentsServiceDepositApi',
			'paymentsServiceCashoutApi',
		]);
	});

	test('version 2 of the notification trigger: one credential per node, chosen by Notifications (the editor’s credential selector)', () => {
		expect(notificationCredentials('deposits', 2)).toEqual(['paymentsServiceDepositApi']);
		expect(notificationCredentials('cashouts', 2)).toEqual(['paymentsServiceCashoutApi']);
		expect(authFields(notificationTrigger(2))).toEqual(['notifications', 'notifications']);
	});
});
