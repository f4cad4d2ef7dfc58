/** Cashout → Get Status, Put On Hold, Release Hold and Cancel (the status of a cashout) through n8n's engine against the sandbox. */
import {
	nodeWorkflow,
	paymentsNode,
	storeCredentialCopy,
	useFixture,
	WorkflowBuilder,
} from '../../harness/fixtures';
import { cashoutPayloadSignature } from '../../harness/signatures';

const CASHOUT = 'paymentsServiceCashoutApi';

function cashoutWorkflow(
	steps: Array<{ name: string; parameters: Record<string, unknown>; continueOnFail?: boolean }>,
) {
	const builder = new WorkflowBuilder('Cashout lifecycle');
	for (const step of steps) {
		builder.then(
			paymentsNode({ resource: 'cashout', ...step.parameters }, CASHOUT, {
				name: step.name,
				id: step.name,
				continueOnFail: step.continueOnFail,
				alwaysOutputData: true,
			}),
		);
	}
	return builder.build();
}

describe('Cashout → Get Status, Put On Hold, Release Hold, Cancel through the n8n engine', () => {
	const fx = useFixture();

	/** Put On Hold for each of `ids`, one item each; `extra` node fields. */
	const holdEach = (ids: number[], extra = {}, row?: (index: number) => string) =>
		nodeWorkflow(
			{ resource: 'cashout', operation: 'putOnHold', cashoutId: '={{ $json.id }}' },
			CASHOUT,
			{
				items: ids.map((id, index) => (row ? { id, row: row(index) } : { id })),
				itemsName: 'Cashouts',
				extra,
			},
		);

	const newPending = (externalId: string) =>
		fx.sandbox.control.addCashout({
			idMerchant: 1001,
			externalId,
			country: 'BR',
			amount: 250,
			currency: 'BRL',
		});

	test('put on hold, release, cancel and read back: each answer carries the status code and its name', async () => {
		const cashout = newPending('payout-hold-1');
		const id = String(cashout.idCashout);
		const run = await fx.engine.run(
			cashoutWorkflow([
				{ name: 'Hold', parameters: { operation: 'putOnHold', cashoutId: id } },
				{ name: 'Release', parameters: { operation: 'releaseHold', cashoutId: id } },
				{
					name: 'Cancel',
					parameters: { operation: 'cancel', cashoutId: id, externalId: 'payout-hold-1' },
				},
				{
					name: 'Status',
					parameters: {
						operation: 'getStatus',
						identifyBy: 'externalId',
						externalId: 'payout-hold-1',
					},
				},
			]),
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Hold')[0].json).toMatchObject({
			cashout_status: 5,
			cashout_status_name: 'ON_HOLD',
			cashout_id: cashout.idCashout,
		});
		expect(run.output('Release')[0].json).toMatchObject({
			cashout_status: 0,
			cashout_status_name: 'PENDING',
		});
		expect(run.output('Cancel')[0].json).toMatchObject({
			cashout_status: 2,
			cashout_status_description: 'Canceled',
			cashout_status_name: 'CANCELLED',
		});
		expect(run.output('Status')[0].json).toMatchObject({
			cashout_status: 2,
			cashout_status_name: 'CANCELLED',
		});
		expect(
			fx.sandbox.control.cashouts(1001).find((record) => record.idCashout === cashout.idCashout)
				?.status,
		).toBe('CANCELLED');

		const calls = fx.sandbox.log.entries().filter((entry) => entry.path.startsWith('/v3/cashout'));
		expect(calls.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
			'PUT /v3/cashout/status 200',
			'PUT /v3/cashout/status 200',
			'DELETE /v3/cashout/cancel 200',
			'POST /v3/cashout/status 200',
		]);
		for (const call of calls) {
			// login/pass travel in the body, and the signature covers exactly the bytes received.
			const body = JSON.parse(call.rawBody!);
			expect(Object.keys(body).slice(0, 2)).toEqual(['login', 'pass']);
			expect(body.login).toBe(fx.sandbox.credentials.cashout.login);
			expect(call.headers['payload-signature']).toBe(
				cashoutPayloadSignature(call, fx.sandbox.credentials.cashout.apiSignature),
			);
		}
	});

	test('a refused transition is a plain-language error, and with Continue On Fail the next item proceeds', async () => {
		const done = newPending('payout-done');
		fx.sandbox.control.advanceCashout(done.idCashout, 'DELIVERED');
		const pending = newPending('payout-fresh');
		const run = await fx.engine.run(
			holdEach([done.idCashout, pending.idCashout], { continueOnFail: true }),
		);
		const [refused, held] = run.output('Payments Service');
		expect(refused.json).toMatchObject({
			error: `Cashout ${done.idCashout} can no longer be put on hold: it is not PENDING (it is DELIVERED) (510)`,
			code: 510,
		});
		expect(refused.json.description).toMatch(/status transition is not allowed/);
		expect(held.json).toMatchObject({ cashout_status_name: 'ON_HOLD' });

		const stop = await fx.engine.run(
			cashoutWorkflow([
				{ name: 'Hold', parameters: { operation: 'putOnHold', cashoutId: String(done.idCashout) } },
			]),
		);
		expect(stop.nodeError('Hold')).toMatchObject({
			name: 'NodeApiError',
			message: `Cashout ${done.idCashout} can no longer be put on hold: it is not PENDING (it is DELIVERED) (510)`,
		});
	});

	test('with On Error "Continue (using error output)" a refused item leaves by the error output, joined with its input item', async () => {
		const done = newPending('payout-error-output-done');
		fx.sandbox.control.advanceCashout(done.idCashout, 'DELIVERED');
		const pending = newPending('payout-error-output-fresh');
		const run = await fx.engine.run(
			holdEach(
				[done.idCashout, pending.idCashout],
				{ onError: 'continueErrorOutput' },
				(index) => ['first', 'second'][index],
			),
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Payments Service', 0).map((item) => item.json.cashout_status_name)).toEqual([
			'ON_HOLD',
		]);
		const [failed] = run.output('Payments Service', 1);
		expect(failed.json).toEqual({
			row: 'first',
			id: done.idCashout,
			error: `Cashout ${done.idCashout} can no longer be put on hold: it is not PENDING (it is DELIVERED) (510)`,
			details: {
				code: 510,
				httpCode: '412',
				description: expect.stringMatching(/status transition is not allowed/),
			},
		});
		expect(run.output('Payments Service', 1)).toHaveLength(1);
	});

	test('a cashout on hold can be cancelled (the service decides; the node does not block it)', async () => {
		const cashout = fx.sandbox.control.addCashout({
			idMerchant: 1001,
			externalId: 'payout-on-hold',
			onHold: true,
		});
		const run = await fx.engine.run(
			cashoutWorkflow([
				{
					name: 'Cancel',
					parameters: {
						operation: 'cancel',
						cashoutId: String(cashout.idCashout),
						externalId: 'payout-on-hold',
					},
				},
			]),
		);
		expect(run.error).toBeUndefined();
		expect(run.output('Cancel')[0].json).toMatchObject({ cashout_status: 2 });
	});

	test('a bank rejection is read with its rejection code and name', async () => {
		const cashout = newPending('payout-rejected');
		fx.sandbox.control.advanceCashout(cashout.idCashout, 'DELIVERED');
		fx.sandbox.control.advanceCashout(cashout.idCashout, 'REJECTED', {
			code: 801,
			reason: 'Account closed',
		});
		const run = await fx.engine.run(
			cashoutWorkflow([
				{
					name: 'Status',
					parameters: {
						operation: 'getStatus',
						identifyBy: 'cashoutId',
						cashoutId: String(cashout.idCashout),
					},
				},
			]),
		);
		expect(run.output('Status')[0].json).toMatchObject({
			cashout_status: 3,
			cashout_status_name: 'REJECTED',
			rejection_code: 801,
			rejection_code_name: 'ERROR_ACCOUNT_CLOSED',
			rejection_reason: 'Account closed',
		});
	});

	test('an unknown cashout is named (509); a bad Cashout ID fails before anything is sent', async () => {
		const unknown = await fx.engine.run(
			cashoutWorkflow([
				{ name: 'Status', parameters: { operation: 'getStatus', cashoutId: '999999999' } },
			]),
		);
		expect(unknown.nodeError('Status')).toMatchObject({
			message: 'Cashout 999999999 was not found for this merchant (509)',
		});
		fx.sandbox.log.clear();
		const bad = await fx.engine.run(
			cashoutWorkflow([
				{ name: 'Hold', parameters: { operation: 'putOnHold', cashoutId: '12ab' } },
			]),
		);
		expect(bad.nodeError('Hold')).toMatchObject({
			name: 'NodeOperationError',
			message: 'Cashout ID must be a positive whole number, got "12ab" (item 0)',
		});
		expect(fx.sandbox.log.entries()).toHaveLength(0);
	});

	test('wrong cashout credentials give the meaning of code 401 and never show the pass', async () => {
		const run = await fx.engine.run(
			nodeWorkflow({ resource: 'cashout', operation: 'getStatus', cashoutId: '1' }, CASHOUT, {
				extra: storeCredentialCopy(fx, CASHOUT, 'cred-cashout-wrong', {
					pass: 'Wrong-Pass-Secret-42',
				}),
			}),
		);
		const error = run.nodeError('Payments Service') as unknown as {
			message: string;
			description: string;
		};
		expect(error.message).toMatch(/\(401\)$/);
		expect(error.description).toMatch(/cashout login or pass is not valid/);
		expect(JSON.stringify(run.run.data)).not.toContain('Wrong-Pass-Secret-42');
	});
});
