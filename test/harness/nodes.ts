/**
 * The package's node classes, from their sources. `X.node` also names the node's codex
 * (`X.node.json`), which plain Node's resolution (tsx, a runner without jest's module registry)
 * takes first: the `.ts` file is named.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const { PaymentsService } =
	require('../../nodes/PaymentsService/PaymentsService.node.ts') as typeof import('../../nodes/PaymentsService/PaymentsService.node');
export const { PaymentsServiceTrigger } =
	require('../../nodes/PaymentsService/PaymentsServiceTrigger.node.ts') as typeof import('../../nodes/PaymentsService/PaymentsServiceTrigger.node');
export const { PaymentsServiceNotificationTrigger } =
	require('../../nodes/PaymentsService/PaymentsServiceNotificationTrigger.node.ts') as typeof import('../../nodes/PaymentsService/PaymentsServiceNotificationTrigger.node');
