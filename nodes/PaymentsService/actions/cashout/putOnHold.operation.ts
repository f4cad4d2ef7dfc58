import { statusUpdateOperation } from './statusChange';

/** Cashout → Put On Hold: PUT /v3/cashout/status with status ON_HOLD; only from PENDING (service rules §6.1). */
export const { properties, execute } = statusUpdateOperation({
	target: 'ON_HOLD',
	allowedFrom: 'PENDING',
	verb: 'put on hold',
	action: (cashoutId) => `Putting cashout ${cashoutId} on hold`,
});
