/**
 * The polling trigger when n8n's host clock jumps (regular mode): n8n main is restarted under
 * Debian's libfaketime, whose offset file moves the clock n8n reads (timers keep real time). A New
 * Record trigger on cashouts takes its starting point, the clock moves 8 days ahead for a poll and
 * comes back; the step requires no execution and the trigger's warning in n8n's log, then a cashout
 * created afterwards must still be reported once (docs/polling-trigger.md, "Under n8n's saving rule").
 */
import { readFileSync, writeFileSync } from 'fs';
import path from 'path';

import type { WorkflowJson } from '../harness/engine';
import { PACKAGE_NAME } from '../harness/packageInfo';
import { mapCredentials } from './catalogue';
import { toWorkflowRun } from './execution';
import { debianBinary, waitFor } from './processes';
import { restartMain } from './restart';
import {
	countPolls,
	pollMark,
	settleOnePoll,
	settleStartingPoint,
	type ScenarioContext,
} from './scenarios';
import { scenarioContext } from './alerts';
import { addPayout, EXECUTION_TIMEOUT_MS, finishedExecutions, need, type RunState } from './state';

/** Debian's libfaketime (package `libfaketime`), the thread-safe build. */
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';
const WORKFLOW_FILE = path.join(__dirname, '..', 'workflows', 'alert-rejected-cashouts.json');
const TRIGGER = 'When a cashout is created';
/** What the trigger logs when the clock went back (trigger state, `clockMovedBack`). */
const BACKWARD_WARNING = /The host clock moved back by (\d+) s since the last poll/;

/** A New Record trigger on cashouts, polled every minute, with nothing after it. */
function clockWorkflow(): WorkflowJson {
	const source = JSON.parse(readFileSync(WORKFLOW_FILE, 'utf8')) as WorkflowJson;
	const trigger = source.nodes.find(
		(node) => node.type === `${PACKAGE_NAME}.paymentsServiceTrigger`,
	);
	if (!trigger) throw new Error(`${WORKFLOW_FILE} has no polling trigger`);
	const node = {
		...trigger,
		name: TRIGGER,
		parameters: {
			pollTimes: { item: [{ mode: 'everyMinute' }] },
			resource: 'cashout',
			event: 'newRecord',
			filters: {},
			options: {},
		},
	};
	return {
		name: 'New cashouts while the clock jumps',
		nodes: [node],
		connections: {},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

/** Writes libfaketime's offset (`+0`, `+8d`): n8n reads the new time at its next clock call. */
function setOffset(file: string, offset: string): void {
	writeFileSync(file, `${offset}\n`);
}

/**
 * What the trigger did after cashout `id` (created `created`) was made: the polls n8n logged, each
 * read of /v1/cashouts (window, answer, whether the cashout was in it) and the trigger's notes.
 */
function readsSince(
	context: ScenarioContext,
	afterSeq: number,
	pollsBefore: number,
	id: number,
	created: string,
): string {
	const iso = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();
	const reads = context.sandbox.log
		.find('GET', '/v1/cashouts')
		.filter((entry) => entry.seq > afterSeq)
		.map((entry) => {
			const listed = JSON.stringify(entry.responseBody ?? '').includes(`"idCashout":${id}`);
			return `  ${iso(entry.query.from)} – ${iso(entry.query.to)} page ${entry.query.page}: ${entry.status}${listed ? `, lists ${id}` : ''}`;
		});
	const notes = context
		.mainLog()
		.split('\n')
		.filter((line) => /host clock|not in the trigger's memory|starts over|error/i.test(line))
		.slice(-6)
		.map((line) => `  ${line.slice(0, 300)}`);
	return [
		`cashout ${id} created ${created}; ${countPolls(context.mainLog(), context.workflow.name) - pollsBefore} poll(s) since; reads since:`,
		...(reads.length ? reads : ['  none']),
		"n8n's last notes:",
		...(notes.length ? notes : ['  none']),
	].join('\n');
}

/** libfaketime (Debian's package, installed when missing): the library preloaded into n8n. */
export async function fakeTimeLibrary(): Promise<string> {
	return await debianBinary('libfaketime', LIBFAKETIME);
}

export async function clockJumpStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const library = await fakeTimeLibrary();
	const offsetFile = path.join(state.runDir, 'faketime-offset');
	setOffset(offsetFile, '+0');
	const down = await restartMain(state, () => undefined, {
		LD_PRELOAD: library,
		FAKETIME_TIMESTAMP_FILE: offsetFile,
		FAKETIME_NO_CACHE: '1',
		FAKETIME_DONT_FAKE_MONOTONIC: '1',
	});
	const stored = mapCredentials(clockWorkflow(), state.credentialIds);
	const workflow = { ...stored, ...(await client.createWorkflow(stored)) };
	const context = scenarioContext(state, workflow);
	const warningsBefore = (context.mainLog().match(new RegExp(BACKWARD_WARNING.source, 'g')) ?? [])
		.length;
	context.activation = pollMark(context);
	await client.activate(workflow);
	try {
		const start = await settleStartingPoint(context, '/v1/cashouts');
		setOffset(offsetFile, '+8d');
		// n8n's login expires within 8 days: no REST call until the clock is back.
		const ahead = await settleOnePoll(context, '/v1/cashouts', '8 days ahead');
		setOffset(offsetFile, '+0');
		const back = await settleOnePoll(context, '/v1/cashouts', 'back');
		const afterJumps = await client.executions(workflow.id);
		if (afterJumps.length !== 0)
			throw new Error(
				`the clock's jumps started ${afterJumps.length} execution(s); nothing had changed`,
			);
		const warnings =
			(context.mainLog().match(new RegExp(BACKWARD_WARNING.source, 'g')) ?? []).length -
			warningsBefore;
		if (warnings < 1) throw new Error("n8n's log has no warning that the clock moved back");
		const moved = BACKWARD_WARNING.exec(
			context
				.mainLog()
				.split('\n')
				.filter((line) => BACKWARD_WARNING.test(line))
				.at(-1) ?? '',
		)?.[1];

		// Still alive, and nothing re-emitted by the poll after: a cashout created now is reported
		// once, alone. The sandbox's clock stands still
		// between moves: move it on (never past n8n's clock) so the cashout is dated now.
		sandbox.clock.set(
			Math.max(sandbox.clock.now() + 1000, Math.floor(Date.now() / 1000) * 1000 - 1000),
		);
		const payout = addPayout(sandbox, 'payout-e2e-clock', ['MX', 250, 'MXN']);
		const createdAfterSeq = sandbox.log.entries().at(-1)?.seq ?? 0;
		const pollsBefore = countPolls(context.mainLog(), workflow.name);
		// Up to five polls; it is reported by the next one. A timeout says what each poll read.
		await waitFor(
			`"${workflow.name}" to report the new cashout`,
			async () => (await client.executions(workflow.id)).length > 0,
			{
				timeoutMs: 330_000,
				intervalMs: 1000,
				detail: () =>
					readsSince(context, createdAfterSeq, pollsBefore, payout.idCashout, payout.creationDate),
			},
		);
		const executions = await finishedExecutions(client, workflow.id, 'the execution to finish');
		const run = await toWorkflowRun(
			client,
			await client.waitForExecution(executions[0].id, EXECUTION_TIMEOUT_MS),
		);
		const ids = run.output(TRIGGER).map((item) => item.json.idCashout);
		if (executions.length !== 1 || JSON.stringify(ids) !== JSON.stringify([payout.idCashout])) {
			throw new Error(
				`after the jumps a new cashout gave ${executions.length} execution(s) reporting ${JSON.stringify(ids)}, expected 1 reporting ${payout.idCashout}`,
			);
		}
		return [
			`n8n restarted under libfaketime in ${down}s; ${start}; ${ahead}; ${back}`,
			`0 executions from the jumps; n8n logged "The host clock moved back by ${moved ?? '?'} s"; a cashout created afterwards was reported once (execution ${executions[0].id})`,
		].join('\n');
	} finally {
		setOffset(offsetFile, '+0');
		await client.deactivate(workflow);
	}
}
