import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	cancelCashout,
	explainCashoutRefusal,
	readCashoutStatus,
	updateCashoutStatus,
} from '../../transport/cashouts';
import { failureOf, isFailureKind, toNodeApiError } from '../../transport/errors';
import { toNodeError } from '../common/nodeError';
import type { PaymentsClient } from '../../transport/client';
import { readPositiveInteger } from '../common/parameters';
import type { OperationModule } from '../types';

/** The Cashout ID parameter of the cashout operations. */
export const cashoutIdProperty: INodeProperties = {
	displayName: 'Cashout ID',
	name: 'cashoutId',
	type: 'string',
	required: true,
	default: '',
	placeholder: '7700123',
	description:
		'The cashout_id the service assigned when the cashout was created (idCashout in the reports)',
};

/** A state change of a cashout: hold, release or cancel (service rules §6.1). */
export interface CashoutChange {
	/** A hold or release (`status`), or a cancel (`external_id`). */
	body:
		| { cashout_id: number; status: 'ON_HOLD' | 'PENDING' }
		| { cashout_id: number; external_id: string };
	/** The status the change leads to: ON_HOLD, PENDING or CANCELLED. */
	target: 'ON_HOLD' | 'PENDING' | 'CANCELLED';
	/** What is being done, e.g. "Putting cashout 123 on hold". */
	action: string;
	/** The change in words after "can no longer be", e.g. "put on hold". */
	verb: string;
	/** The statuses it is allowed from, in words, e.g. "PENDING". */
	allowedFrom: string;
	itemIndex: number;
}

/**
 * Sends a hold, release or cancel, and reads the result back when the service refuses it as an
 * invalid transition (510): when the cashout already is where the change wanted it, the item is its
 * current status and a message, not an error, with `already_in_status` false when this call's own
 * first sending made it (its answer lost, the resend refused) and true otherwise (an earlier attempt,
 * e.g. under Retry On Fail, or someone else's change); otherwise the refusal names the cashout's
 * actual status (read, not guessed from the message). The status read changes nothing.
 * @throws NodeApiError for a refusal (509 not found, 510 from another status) or a failure.
 */
export async function changeCashoutStatus(
	client: PaymentsClient,
	change: CashoutChange,
): Promise<INodeExecutionData[]> {
	const cashoutId = change.body.cashout_id;
	let timesSent = 0;
	const counted = () => void timesSent++;
	try {
		const failure = {
			action: change.action,
			itemIndex: change.itemIndex,
			explain: explainCashoutRefusal(cashoutId, change.verb, change.allowedFrom),
		};
		const [changed] =
			'status' in change.body
				? await updateCashoutStatus(client, change.body, failure, counted)
				: await cancelCashout(client, change.body, failure, counted);
		return [withTimesSent(changed, timesSent)];
	} catch (caught) {
		// The cashout calls fail only with n8n's errors; anything else is wrapped once here.
		const error = toNodeError(client.context.getNode(), caught, change.itemIndex);
		if (!isFailureKind(error, 'invalidTransition')) throw error;
		let current: INodeExecutionData;
		try {
			[current] = await readCashoutStatus(
				client,
				{ cashout_id: cashoutId },
				{
					action: `Reading the status of cashout ${cashoutId} after the service refused the change`,
					itemIndex: change.itemIndex,
				},
			);
		} catch {
			// Without the status, the refusal stands as the service gave it.
			throw error;
		}
		const status = current.json.cashout_status_name;
		if (status !== change.target) {
			// The refusal again, now naming the status read rather than one guessed from the message.
			const failure = failureOf(error);
			if (typeof status !== 'string' || !failure) throw error;
			throw toNodeApiError(client.context.getNode(), failure, 'cashout', {
				action: change.action,
				itemIndex: change.itemIndex,
				explain: () =>
					`Cashout ${cashoutId} can no longer be ${change.verb}: it is not ${change.allowedFrom} (it is ${status}) (510)`,
			});
		}
		// Sent again after a lost answer: the first sending made the change, and nothing after this
		// node has seen it made (docs/money-moves-once.md).
		const resent = timesSent > 1;
		current.json.already_in_status = !resent;
		current.json.message = resent
			? `Cashout ${cashoutId} is ${status}: the answer to the change was lost, and the service refused it sent again as made already (510).`
			: `Cashout ${cashoutId} is already ${status}: nothing was changed. An earlier attempt whose answer was lost (or another change) already did it.`;
		return [withTimesSent(current, timesSent)];
	}
}

/** `item` with `times_sent` when the change was sent more than once (a lost answer resent). */
function withTimesSent(item: INodeExecutionData, timesSent: number): INodeExecutionData {
	if (timesSent > 1) item.json.times_sent = timesSent;
	return item;
}

/**
 * The operation that moves a cashout with `PUT /v3/cashout/status` (service rules §6.1): Put On
 * Hold (PENDING → ON_HOLD) and Release Hold (ON_HOLD → PENDING) differ only in these words.
 */
export function statusUpdateOperation(move: {
	target: 'ON_HOLD' | 'PENDING';
	allowedFrom: 'PENDING' | 'ON_HOLD';
	/** After "can no longer be", e.g. "put on hold". */
	verb: string;
	/** What is being done to `cashoutId`, e.g. "Putting cashout 7 on hold". */
	action: (cashoutId: number) => string;
}): OperationModule {
	return {
		properties: [cashoutIdProperty],
		async execute(
			this: IExecuteFunctions,
			client: PaymentsClient,
			itemIndex: number,
		): Promise<INodeExecutionData[]> {
			const cashoutId = readPositiveInteger(this, 'cashoutId', 'Cashout ID', itemIndex);
			return await changeCashoutStatus(client, {
				body: { cashout_id: cashoutId, status: move.target },
				target: move.target,
				action: move.action(cashoutId),
				verb: move.verb,
				allowedFrom: move.allowedFrom,
				itemIndex,
			});
		},
	};
}
