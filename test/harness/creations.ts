import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { Sandbox, SandboxOptions } from '../sandbox';
import { realDate } from './clock';
import type { WorkflowJson } from './engine';
import {
	CREDENTIAL_IDS,
	paymentsNode,
	startFixture,
	WorkflowBuilder,
	type CredentialTypeName,
	type Fixture,
} from './fixtures';

/**
 * The creations' engine tests' building blocks: Deposit, Cashout and Refund → Create nodes whose
 * fields come from the input item, the workflows that feed them rows, the three creations as one
 * table ({@link CREATIONS}) and the fixture of their specs.
 */

export const CASHOUT: CredentialTypeName = 'paymentsServiceCashoutApi';
export const DEPOSIT: CredentialTypeName = 'paymentsServiceDepositApi';

/** The answers a creation can lose before its item fails: the first and the node's 2 resends. */
export const LOST_ANSWERS = 3;

/** A Brazilian payout whose fields come from the input item (`name`, `amount`, `document`). */
export const payoutFromRow = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'cashout',
	operation: 'create',
	externalId: '',
	country: { __rl: true, mode: 'list', value: 'BR' },
	amount: '={{ $json.amount }}',
	documentId: '={{ $json.document }}',
	beneficiaryName: '={{ $json.name }}',
	notificationUrl: 'https://shop.example.com/payouts/notify',
	...extra,
});

/** A Brazilian deposit (BRL) whose amount and description come from the input item (`amount`, `name`). */
export const depositFromRow = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'deposit',
	operation: 'create',
	amount: '={{ $json.amount }}',
	currency: 'BRL',
	country: 'BR',
	additionalFields: { description: '={{ $json.name }}' },
	...extra,
});

/** A refund of the input item's `deposit` for its `amount`. */
export const refundFromRow = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'refund',
	operation: 'create',
	depositId: '={{ $json.deposit }}',
	amount: '={{ $json.amount }}',
	...extra,
});

/** `node` with the optional Session credential selected, for looking earlier records up. */
export const withSession = (node: INode): INode => ({
	...node,
	credentials: {
		...node.credentials,
		paymentsServiceSessionApi: {
			id: CREDENTIAL_IDS.paymentsServiceSessionApi,
			name: 'paymentsServiceSessionApi',
		},
	},
});

/** Rows → Loop Over Items (batch size 1) → `node`. */
export function loopWorkflow(id: string, rows: IDataObject[], node: INode): WorkflowJson {
	const builder = new WorkflowBuilder('Loop over rows');
	builder.items('Rows', rows);
	builder.loopOverItems('Loop Over Items', node);
	return { ...builder.build(), id };
}

/** Rows → `node` (all rows in one run). */
export function itemsWorkflow(id: string, rows: IDataObject[], node: INode): WorkflowJson {
	const builder = new WorkflowBuilder('Rows at once');
	builder.items('Rows', rows);
	builder.then(node);
	return { ...builder.build(), id };
}

/** One creation as the engine tests drive it: its Create node fed by rows, and what it made. */
export interface CreationKind {
	path: string;
	/** The output field that says whether the record was made before: `already_created`, `already_requested`. */
	already: 'already_created' | 'already_requested';
	/** What its key is sent as, in messages: "external ID", "idempotency key". */
	keyName: string;
	/** Its Create node with the Session credential (look-ups), fields from the row; `name` marks the request. */
	node(extra?: INodeParameters, settings?: IDataObject): INode;
	/** `count` rows named after `salt` (refunds: of completed deposits made for them in `sandbox`). */
	rows(sandbox: Sandbox, salt: string, count?: number): IDataObject[];
	/** The records the sandbox made for requests whose name contains `salt`: name, key and id. */
	made(sandbox: Sandbox, salt: string): Array<{ name: string; key: string; id: number }>;
	/** The key and the id an output item reports. */
	reported(item: IDataObject): { key: unknown; id: unknown };
}

/** A row's payee, amount and document, the first two alike: two identical rows are two requests. */
const PAYEES = [
	{ name: 'Ana Souza', amount: '250.00', document: '84932495016' },
	{ name: 'Ana Souza', amount: '250.00', document: '84932495016' },
	{ name: 'Bia Lima', amount: '400.00', document: '52998224725' },
];

/** The rows of a payout or a deposit: `count` of the payees, their names salted. */
const payeeRows = (salt: string, count = PAYEES.length) =>
	PAYEES.slice(0, count).map((row) => ({ ...row, name: `${row.name} ${salt}` }));

/** The records made whose name contains `salt`, each as its name, key and id (`parts` reads them). */
function named<T>(
	made: T[],
	salt: string,
	parts: (entry: T) => [unknown, unknown, number],
): Array<{ name: string; key: string; id: number }> {
	return made
		.map((entry) => {
			const [name, key, id] = parts(entry);
			return { name: String(name), key: String(key), id };
		})
		.filter((entry) => entry.name.includes(salt));
}

/** Payouts, deposits and refunds, as the engine tests drive them. */
export const CREATIONS: Record<'cashout' | 'deposit' | 'refund', CreationKind> = {
	cashout: {
		path: '/v3/cashout',
		already: 'already_created',
		keyName: 'external ID',
		node: (extra, settings) => withSession(paymentsNode(payoutFromRow(extra), CASHOUT, settings)),
		rows: (_sandbox, salt, count) => payeeRows(salt, count),
		made: (sandbox, salt) =>
			named(sandbox.control.createdCashouts(), salt, (entry) => [
				entry.request.beneficiary_name,
				entry.request.external_id,
				entry.cashoutId,
			]),
		reported: (item) => ({ key: item.external_id, id: item.cashout_id }),
	},
	deposit: {
		path: '/v3/deposits',
		already: 'already_created',
		keyName: 'idempotency key',
		node: (extra, settings) => withSession(paymentsNode(depositFromRow(extra), DEPOSIT, settings)),
		rows: (_sandbox, salt, count) => payeeRows(salt, count),
		made: (sandbox, salt) =>
			named(sandbox.control.createdDeposits(), salt, (entry) => [
				entry.request.description,
				entry.idempotencyKey,
				entry.depositId,
			]),
		reported: (item) => ({ key: item.idempotency_key, id: item.deposit_id }),
	},
	refund: {
		path: '/v3/refunds',
		already: 'already_requested',
		keyName: 'idempotency key',
		node: (extra, settings) =>
			withSession(
				paymentsNode(
					refundFromRow({ additionalFields: { comments: '={{ $json.name }}' }, ...extra }),
					DEPOSIT,
					settings,
				),
			),
		// Two partial refunds of one completed deposit alike, then one of another.
		rows: (sandbox, salt, count = 3) => {
			const deposit = () =>
				sandbox.control.addDeposit({
					idMerchant: 1001,
					status: 'COMPLETED',
					country: 'BR',
					paymentMethodCode: 'PX',
					amount: 100,
				}).idDeposit;
			const first = deposit();
			const second = deposit();
			return [
				{ deposit: first, amount: '10.00', name: `Refund ${salt}` },
				{ deposit: first, amount: '10.00', name: `Refund ${salt}` },
				{ deposit: second, amount: '5.00', name: `Refund of another ${salt}` },
			].slice(0, count);
		},
		made: (sandbox, salt) =>
			named(sandbox.control.createdRefunds(), salt, (entry) => [
				entry.request.comments,
				entry.idempotencyKey,
				entry.refundId,
			]),
		reported: (item) => ({ key: item.idempotency_key, id: item.refund_id }),
	},
};

/**
 * The fixture of a creations spec, started before its first test and closed after its last, its
 * request log and faults cleared before each test and n8n's clock real again after it. Call inside
 * the spec's `describe`; the returned function gives the fixture inside hooks and tests.
 */
export function creationsFixture(options: { sandbox?: SandboxOptions } = {}): () => Fixture {
	let fixture: Fixture | undefined;
	beforeAll(async () => {
		fixture = await startFixture(options);
	});
	afterAll(async () => await fixture?.close());
	beforeEach(() => {
		fixture?.sandbox.log.clear();
		fixture?.sandbox.faults.clear();
	});
	afterEach(() => realDate());
	return () => {
		if (!fixture) throw new Error('creationsFixture: used before the spec’s beforeAll ran');
		return fixture;
	};
}
