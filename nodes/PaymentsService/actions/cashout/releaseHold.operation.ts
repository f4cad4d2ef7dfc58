import { statusUpdateOperation } from './statusChange';

/** Cashout → Release Hold: PUT /v3/cashout/status with status PENDING; only from ON_HOLD (service rules §6.1). */
export const { properties, execute } = statusUpdateOperation({
	target: 'PENDING',
	allowedFrom: 'ON_HOLD',
	verb: 'released from hold',
	action: (cashoutId) => `Releasing the hold on cashout ${cashoutId}`,
});
