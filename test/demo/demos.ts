import { parse } from 'csv-parse/sync';
import type { IDataObject, INode } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import { lostCashoutAnswers } from '../sandbox/faults';
import type { Engine, WorkflowJson, WorkflowRun } from '../harness/engine';
import { readWorkflow } from '../harness/engine';
import { PollRunner } from '../harness/poll';
import { periodRead } from '../harness/reads';
import { startWebhookServer, WebhookRunner } from '../harness/webhook';
import type { ReceivedMail } from './smtp-sink';

/** What a demo needs around the engine. */
export interface DemoContext {
	engine: Engine;
	sandbox: Sandbox;
	mails: ReceivedMail[];
	/**
	 * The node errors n8n reported while this demo ran (its error reporter logs each failed node's
	 * error), in order. `npm run demo` (run.ts) keeps them from n8n's log and prints them under the
	 * demo, so that a demo that fails a node on purpose says which fault each one shows. Absent where
	 * they are not kept (the engine test of the workflows, a real n8n).
	 */
	nodeErrors?: readonly string[];
}

/** One example workflow of test/workflows, how to point it at sandbox data, and what it must show. */
export interface Demo {
	title: string;
	file: string;
	/**
	 * Adjusts the workflow's example values to records that exist in the sandbox, or gives the
	 * sandbox what the workflow shows (it runs before the workflow, in the demo and in a real n8n).
	 */
	prepare?: (workflow: WorkflowJson, context: DemoContext) => WorkflowJson;
	/** How the workflow starts, when not from its Manual Trigger (e.g. polls of a trigger). */
	run?: (workflow: WorkflowJson, context: DemoContext) => Promise<WorkflowRun>;
	/**
	 * Reads the run: returns the lines to print, throws when the workflow did not do what it
	 * exists to show.
	 */
	summarize: (run: WorkflowRun, context: DemoContext) => string[];
}

/** Replaces fields of a Set node in raw JSON mode. */
export function setRawFields(
	workflow: WorkflowJson,
	nodeName: string,
	fields: IDataObject,
): WorkflowJson {
	const nodes = workflow.nodes.map((node): INode => {
		if (node.name !== nodeName) return node;
		const current = JSON.parse(String(node.parameters.jsonOutput)) as IDataObject;
		return {
			...node,
			parameters: {
				...node.parameters,
				jsonOutput: JSON.stringify({ ...current, ...fields }, null, 2),
			},
		};
	});
	return { ...workflow, nodes };
}

/**
 * The first part of a MIME message (as nodemailer sends it) whose Content-Type matches `type`: its
 * file name and decoded bytes (base64 or quoted-printable), or undefined.
 */
function mimePart(raw: string, type: RegExp): { fileName: string; content: Buffer } | undefined {
	for (const part of raw.split(/\r?\n--[^\r\n]+/)) {
		const split = part.indexOf('\r\n\r\n');
		const headers = part.slice(0, split);
		const contentType = /^Content-Type: ([^;\r\n]+)/im.exec(headers)?.[1] ?? '';
		if (!type.test(contentType)) continue;
		const fileName = /filename="?([^"\r\n;]+)/i.exec(headers)?.[1] ?? '';
		const body = part.slice(split + 4);
		const encoding = /^Content-Transfer-Encoding: (\S+)/im.exec(headers)?.[1].toLowerCase();
		const content =
			encoding === 'base64'
				? Buffer.from(body.replace(/\s+/g, ''), 'base64')
				: encoding === 'quoted-printable'
					? Buffer.from(
							body
								.replace(/=\r?\n/g, '')
								.replace(/=([0-9A-F]{2})/gi, (_, hex: string) =>
									String.fromCharCode(parseInt(hex, 16)),
								),
							'latin1',
						)
					: Buffer.from(body, 'utf8');
		return { fileName, content };
	}
	return undefined;
}

/** Throws with `message` unless `condition` holds. */
export function check(condition: unknown, message: string): asserts condition {
	if (!condition) throw new Error(message);
}

/**
 * The newest e-mail to `address`: each workflow mails its own team, and in a real n8n alerts on
 * different lists run side by side, so the newest e-mail of all may be another alert's.
 */
export function lastMailTo(mails: ReceivedMail[], address: string): ReceivedMail | undefined {
	return mails.filter((mail) => mail.to.includes(address)).at(-1);
}

/** An e-mail as the demo prints it: its subject, then its text, each line indented. */
function mailLines(mail: ReceivedMail): string[] {
	const text = mail.text.trim().split(/\r?\n/);
	return [`  Subject: ${mail.subject}`, ...text.map((line) => `  | ${line}`)];
}

/**
 * The polling trigger `trigger` of `workflow`, activated: its first poll, which must only take a
 * starting point (no items, no error).
 */
async function activatedTrigger(
	engine: Engine,
	workflow: WorkflowJson,
	trigger: string,
): Promise<PollRunner> {
	const runner = new PollRunner(engine, workflow, trigger);
	const activation = await runner.poll();
	check(
		!activation.error && activation.items === null,
		`the first poll should only take a starting point: ${activation.error?.message}`,
	);
	return runner;
}

/** The next poll of `trigger`, which must report exactly the record whose `field` is `id` (`what`). */
async function pollReporting(trigger: PollRunner, field: string, id: number, what: string) {
	const polled = await trigger.poll();
	check(!polled.error, `the poll failed: ${polled.error?.message}`);
	check(
		polled.items?.length === 1 && polled.items[0].json[field] === id,
		`the poll did not report exactly ${what}`,
	);
	return polled.items;
}

/** Sends `payout` to the bank (DELIVERED), which then rejects it with `rejection`. */
function rejectedPayout(
	sandbox: Sandbox,
	payout: { idCashout: number },
	rejection: { code: number; reason: string },
): void {
	sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
	sandbox.control.advanceCashout(payout.idCashout, 'REJECTED', rejection);
}

function firstJson(run: WorkflowRun, node: string): IDataObject {
	const error = run.nodeError(node);
	check(!error, `${node} failed: ${error?.message}`);
	const item = run.output(node)[0];
	check(item, `${node} produced no item`);
	return item.json;
}

/** What {@link disagreeYesterday} made the sandbox's balance report get wrong, per sandbox. */
const disagreements = new WeakMap<
	Sandbox,
	{ day: string; deposit: { idDeposit: number; amount: number; fee: number }; shift: number }
>();

/**
 * Makes the sandbox's daily balance report of yesterday (UTC) disagree with the lists, once per
 * sandbox: a completed deposit of the day left out of it, and its totalBalance 25.00 USD above what
 * the day before and its net carry. Returns what it did (the same on a second call).
 */
function disagreeYesterday(sandbox: Sandbox) {
	const known = disagreements.get(sandbox);
	if (known) return known;
	const day = new Date(sandbox.clock.now() - 86_400_000).toISOString().slice(0, 10);
	const deposit = sandbox.control
		.deposits(1001)
		.find(
			(candidate) => candidate.status === 'COMPLETED' && candidate.creationDate.startsWith(day),
		);
	check(deposit, `the sandbox holds no completed deposit of ${day}`);
	sandbox.control.omitFromBalanceReport(deposit.idDeposit);
	const shift = 25;
	sandbox.control.shiftBalanceReport(1001, day, shift);
	const made = {
		day,
		deposit: { idDeposit: deposit.idDeposit, amount: deposit.amount, fee: deposit.fee },
		shift,
	};
	disagreements.set(sandbox, made);
	return made;
}

/** The demos, in the order `npm run demo` runs and numbers them. */
export const DEMOS: Demo[] = [
	{
		title:
			'Daily report e-mail: the available balance per currency, then yesterday’s deposit totals by status and currency (São Paulo’s day), every deposit attached as CSV, from one read of the day',
		file: 'daily-report.json',
		prepare(workflow, { sandbox }) {
			// The merchant also holds a BRL balance (the sandbox's USD one follows its records), so the
			// e-mail shows more than one currency.
			sandbox.control.setLocalBalance(1001, 'BRL', 48_250.75);
			return workflow;
		},
		summarize(run, { mails, sandbox }) {
			check(!run.error, `the workflow failed: ${run.error?.message}`);
			const totals = run.output('Deposit totals and file');
			const total = totals.at(-1);
			check(total?.json.total === true, 'Summarize gave no totals item');
			const mail = lastMailTo(mails, 'finance@acme-store.example');
			check(
				mail && /^Deposits report \d{4}-\d{2}-\d{2}: \d+ deposits$/.test(mail.subject),
				'the report e-mail was not received',
			);
			// The sandbox's own deposits of the period the report read (yesterday in São Paulo).
			const from = Date.parse(String(total.json.periodFrom)) / 1000;
			const to = Date.parse(String(total.json.periodTo)) / 1000;
			const expected = sandbox.control.deposits(1001).filter((deposit) => {
				const created = Date.parse(deposit.creationDate) / 1000;
				return created >= from && created <= to;
			});
			check(
				expected.length > 0 && total.json.count === expected.length,
				'the totals miss deposits',
			);
			check(
				to - from === 86_399 &&
					new Date((from - 3 * 3_600) * 1000).toISOString().endsWith('T00:00:00.000Z'),
				'the period is not a day of São Paulo',
			);
			const cents = (value: unknown) => Math.round(Number(value) * 100);
			for (const field of ['amount', 'fee'] as const) {
				const stats = total.json[field] as Record<string, { sum: string }>;
				check(
					cents(stats.USD.sum) ===
						expected.reduce((sum, deposit) => sum + cents(deposit[field]), 0),
					`the total ${field} differs from the sandbox’s`,
				);
			}
			// One read of the day: every page of the period requested once, its windows covering it.
			const read = periodRead(sandbox.log.entries(), '/v1/deposits', from, to);
			check(
				read.repeated.length === 0,
				`pages of the day were requested more than once: ${read.repeated.join(', ')}`,
			);
			check(
				read.covers &&
					read.unfinished.length === 0 &&
					read.leaves.length === total.json.windowsRead,
				'the requests of the day are not one read of it',
			);
			check(
				(run.run.data.resultData.runData['Deposit totals and file'] ?? []).length === 1 &&
					(run.run.data.resultData.runData['Available balance'] ?? []).length === 1,
				'Balance → Get or Summarize ran more than once',
			);
			// The balances: the node's items, the e-mail's first table and the sandbox's own figures.
			const balances = sandbox.control.balances(1001);
			const output = run.output('Available balance').map((item) => item.json);
			check(
				JSON.stringify(output) === JSON.stringify(balances),
				'Balance → Get did not give the sandbox’s balances',
			);
			const html = mimePart(mail.raw, /^text\/html$/i)?.content.toString('utf8') ?? '';
			const tables = html.match(/<table[^>]*>.*?<\/table>/gs) ?? [];
			check(tables.length === 2, `the e-mail has ${tables.length} tables, not 2`);
			const cells = (table: string) =>
				(table.match(/<tr>.*?<\/tr>/gs) ?? []).map((row) =>
					row.split(/<\/t[dh]><t[dh]>/).map((cell) =>
						cell
							.replace(/<br>/g, ', ')
							.replace(/<[^>]+>/g, '')
							.trim(),
					),
				);
			const shown = cells(tables[0]).slice(1);
			check(
				shown.length === balances.length &&
					shown.every(
						([currency, available], index) =>
							currency === balances[index].currency &&
							cents(available) === cents(balances[index].data.availableBalance),
					),
				`the e-mail’s balances (${shown.map((row) => row.join(' ')).join('; ')}) are not the sandbox’s`,
			);
			const attachment = mimePart(mail.raw, /^text\/csv$/i);
			check(attachment, 'the e-mail has no CSV attachment');
			const rows = parse(attachment.content, { bom: true, columns: true }) as Array<
				Record<string, string>
			>;
			check(
				rows
					.map((row) => Number(row.idDeposit))
					.sort((x, y) => x - y)
					.join() ===
					expected
						.map((deposit) => deposit.idDeposit)
						.sort((x, y) => x - y)
						.join() && (total.json.file as IDataObject | undefined)?.rows === rows.length,
				'the attached file does not hold exactly yesterday’s deposits',
			);
			return [
				`${read.requests} request${read.requests === 1 ? '' : 's'} read the day once, each page once (a second read for the file would make ${2 * read.requests})`,
				`balances read: ${balances.map((balance) => `${balance.data.availableBalance} ${balance.currency} available`).join(', ')}`,
				`${String(total.json.count)} deposits totalled in ${totals.length - 1} groups; e-mail sent to ${mail.to.join(', ')}:`,
				`  Subject: ${mail.subject}`,
				...tables.flatMap((table) => cells(table).map((row) => `  | ${row.join(' | ')}`)),
				`  Attached: ${attachment.fileName}, ${rows.length} rows, ${attachment.content.length} bytes`,
			];
		},
	},
	{
		title:
			'Daily reconciliation: yesterday’s balance report beside its deposits, cashouts, notes and settlements, every difference marked in an e-mail; a second e-mail when the balance did not carry over',
		file: 'reconcile-daily-balance.json',
		prepare(workflow, { sandbox }) {
			disagreeYesterday(sandbox);
			return workflow;
		},
		summarize(run, { mails, sandbox }) {
			check(!run.error, `the workflow failed: ${run.error?.message}`);
			const made = disagreeYesterday(sandbox);
			const items = run.output('Reconcile yesterday').map((item) => item.json);
			check(
				items.length === 1 && items[0].day === made.day && items[0].currency === 'USD',
				`Reconcile gave ${items.map((item) => `${String(item.day)} ${String(item.currency)}`).join(', ') || 'nothing'}, not yesterday in USD`,
			);
			const day = items[0];
			const terms = day.terms as Record<string, IDataObject>;
			const balance = day.balance as IDataObject;
			const cents = (value: unknown) => Math.round(Number(value) * 100);
			check(
				day.reconciled === false &&
					(day.differences as string[]).join() === 'depositTotal,depositFeeTotal,totalBalance',
				`the differences found are ${(day.differences as string[]).join(', ') || 'none'}`,
			);
			check(
				cents(terms.depositTotal.difference) === cents(made.deposit.amount) &&
					cents(terms.depositFeeTotal.difference) === cents(made.deposit.fee) &&
					cents(balance.difference) === -cents(made.shift),
				'the differences are not the deposit left out and the balance shifted, to the cent',
			);
			// Every list read once: each page of yesterday requested once, its windows covering it. The
			// run reads the report first, then the lists: its requests follow its last report request
			// (other workflows read days that overlap yesterday).
			const from = Date.parse(`${made.day}T00:00:00Z`) / 1000;
			const log = sandbox.log.entries();
			const reportRead = Math.max(
				...log.filter((entry) => entry.path === '/v1/balance/report').map((entry) => entry.seq),
			);
			const reads = ['/v1/deposits', '/v1/cashouts', '/v1/notes', '/v1/settlements'].map(
				(path) =>
					[
						path,
						periodRead(
							log.filter((entry) => entry.seq > reportRead),
							path,
							from,
							from + 86_399,
						),
					] as const,
			);
			for (const [path, read] of reads)
				check(
					read.covers && read.repeated.length === 0 && read.unfinished.length === 0,
					`${path} was not read once over yesterday`,
				);
			check(
				(run.run.data.resultData.runData['Reconcile yesterday'] ?? []).length === 1,
				'Reconcile ran more than once',
			);
			const mail = lastMailTo(mails, 'finance@acme-store.example');
			check(
				mail?.subject === `Reconciliation ${made.day}: 3 difference(s)`,
				`the reconciliation e-mail was not received (${mail?.subject ?? 'none'})`,
			);
			const html = mimePart(mail.raw, /^text\/html$/i)?.content.toString('utf8') ?? '';
			const rows = (html.match(/<tr[^>]*>.*?<\/tr>/gs) ?? []).slice(1).map((row) => ({
				marked: row.includes('✗'),
				cells: row.split(/<\/td><td>/).map((cell) => cell.replace(/<[^>]+>/g, '').trim()),
			}));
			check(
				rows.length === 8 &&
					rows
						.filter((row) => row.marked)
						.map((row) => row.cells[0].replace('✗ ', '').split(' ')[0])
						.join() === 'depositTotal,depositFeeTotal,totalBalance',
				'the e-mail’s table does not mark exactly the three differences',
			);
			const alert = lastMailTo(mails, 'treasury@acme-store.example');
			check(
				alert?.subject === `Balance did not carry over on ${made.day} (USD)` &&
					alert.text.includes(
						`Difference (expected minus report): ${String(balance.difference)} USD`,
					),
				'the balance alert was not received',
			);
			return [
				`made to disagree: deposit ${made.deposit.idDeposit} (${made.deposit.amount} USD, fee ${made.deposit.fee}) left out of ${made.day}’s report, its balance shifted by ${made.shift} USD`,
				`requests: ${reads.map(([path, read]) => `${path.slice(4)} ${read.requests}`).join(', ')}, and the report’s; each list read once over the day, each page once`,
				`e-mail to ${mail.to.join(', ')}: ${mail.subject}`,
				...rows.map((row) => `  | ${row.cells.join(' | ')}`),
				`alert to ${alert.to.join(', ')}: ${alert.subject}`,
			];
		},
	},
	{
		title:
			'A disputed deposit flagged for review, with the customer’s voucher and statement, ticket confirmed',
		file: 'flag-disputed-deposit.json',
		summarize(run, { sandbox }) {
			// The workflow finds the deposit itself: a completed boleto deposit of the last week.
			const found = firstJson(run, 'Find a disputed deposit');
			check(
				found.paymentMethodCode === 'BL' && found.status === 'COMPLETED',
				'the workflow did not find a completed boleto deposit',
			);
			const ticket = firstJson(run, 'Flag for review');
			check(
				ticket.confirmed === true && ticket.status === 'CONFIRMED',
				'the ticket was not confirmed',
			);
			const stored = sandbox.control.tickets().find((entry) => entry.idTicket === ticket.idTicket);
			check(
				stored?.uploadedDocuments.length === 2,
				'the ticket does not hold the voucher and the statement',
			);
			const skipped = ticket.attachmentsSkipped as IDataObject[];
			const uploaded = ticket.attachmentsUploaded as IDataObject[];
			return [
				`deposit found: ${found.idDeposit} (${found.paymentMethodName}, ${found.creationDate})`,
				`ticket ${ticket.idTicket} (${ticket.type}) for deposit ${ticket.depositId}: ${ticket.status}`,
				`  attached by the service: ${stored.uploadedDocuments[0].fileName} (${stored.uploadedDocuments[0].documentType})`,
				...uploaded.map((file) => `  uploaded: ${file.fileName} (${file.documentType})`),
				...skipped.map(
					(file) => `  not uploaded again: ${file.fileName} (${file.documentType}): ${file.reason}`,
				),
			];
		},
	},
	{
		title:
			'Deposit creation: a Pix order (ONE_SHOT, QR code as a PNG file) and a boleto order missing the address (HOSTED)',
		file: 'create-deposits.json',
		summarize(run) {
			check(
				!run.nodeError('Create deposit'),
				`Create deposit failed: ${run.nodeError('Create deposit')?.message}`,
			);
			const [pix, boleto] = run.output('Create deposit');
			check(pix?.json.checkout_type === 'ONE_SHOT', 'the Pix order is not ONE_SHOT');
			check(boleto?.json.checkout_type === 'HOSTED', 'the boleto order is not HOSTED');
			const qr = pix.binary?.qrCode;
			check(
				qr && Buffer.from(qr.data, 'base64').subarray(1, 4).toString() === 'PNG',
				'no QR code PNG',
			);
			const info = pix.json.payment_info as IDataObject;
			return [
				`${pix.json.merchant_invoice_id}: ONE_SHOT deposit ${pix.json.deposit_id}, pay ${info.amount} ${info.currency} by ${info.expiration_date}; QR code ${qr.fileName} (${qr.fileSize})`,
				`${boleto.json.merchant_invoice_id}: HOSTED deposit ${boleto.json.deposit_id}, customer completes it at ${boleto.json.redirect_url}`,
			];
		},
	},
	{
		title:
			'A payout put on hold, released, cancelled and read back; holding it again is refused (Continue On Fail)',
		file: 'manage-payout.json',
		summarize(run) {
			// The workflow finds the payout itself: a PENDING cashout of the last week.
			const found = firstJson(run, 'Find a pending payout');
			check(found.status === 'PENDING', 'the workflow did not find a pending payout');
			const line = (node: string) => {
				const json = firstJson(run, node);
				return `  ${node}: ${json.error ? `refused: ${json.error}` : `${json.cashout_status} ${json.cashout_status_name} (${json.cashout_status_description})`}`;
			};
			const refused = firstJson(run, 'Try to hold again');
			check(
				/can no longer be put on hold: it is not PENDING.*\(510\)/.test(String(refused.error)),
				'the second hold was not refused with 510',
			);
			check(
				firstJson(run, 'Read status').cashout_status_name === 'CANCELLED',
				'the payout is not cancelled',
			);
			return [
				`  payout found: cashout ${found.idCashout} (${found.externalId}), ${found.amount} ${found.currency}`,
				...['Put on hold', 'Release hold', 'Cancel payout', 'Read status', 'Try to hold again'].map(
					line,
				),
			];
		},
	},
	{
		title: 'Reference data: an exchange rate and the bank codes of a country',
		file: 'rates-and-banks.json',
		summarize(run) {
			const rate = firstJson(run, 'USD to BRL');
			const banks = run.output('Brazilian banks').map((item) => item.json);
			check(typeof rate.fx_rate === 'number' && banks.length === 5, 'no rate or banks');
			return [
				`100 USD = ${rate.converted_amount} ${rate.currency} (rate ${rate.fx_rate})`,
				`banks: ${banks.map((bank) => `${bank.code} ${bank.name}`).join('; ')}`,
			];
		},
	},
	{
		title:
			'Alert on rejected cashouts: the trigger polls, the bank rejects a cashout, an alert e-mail goes out',
		file: 'alert-rejected-cashouts.json',
		async run(workflow, { engine, sandbox }) {
			const trigger = await activatedTrigger(engine, workflow, 'When a cashout is rejected');
			// A payout is created after activation: PENDING is not an alert (the trigger asks the
			// service for REJECTED cashouts only, so it is not even read).
			const payout = sandbox.control.addCashout({
				idMerchant: 1001,
				externalId: 'payout-demo-0002',
				country: 'MX',
				amount: 1500,
				currency: 'MXN',
			});
			const pending = await trigger.poll();
			check(!pending.error && pending.items === null, 'a new pending payout raised an alert');
			// The bank then rejects it, with a code and no reason.
			rejectedPayout(sandbox, payout, { code: 801, reason: '' });
			const items = await pollReporting(
				trigger,
				'idCashout',
				payout.idCashout,
				'the rejected cashout',
			);
			const quiet = await trigger.poll();
			check(quiet.items === null, 'a third poll reported the rejection again');
			return await engine.run(workflow, { triggerItems: items });
		},
		summarize(run, { mails }) {
			check(!run.error, `the workflow failed: ${run.error?.message}`);
			const details = firstJson(run, 'Rejection details');
			check(
				details.rejection_code_name === 'ERROR_ACCOUNT_CLOSED',
				'the rejection code was not read',
			);
			const event = run.output('When a cashout is rejected')[0]?.json.event as
				IDataObject | undefined;
			// Asked for REJECTED cashouts only, the trigger never saw this one in another status.
			check(
				event !== undefined && event.previousStatus === null,
				'the event should say the trigger first saw the cashout rejected',
			);
			const mail = lastMailTo(mails, 'payouts-team@acme-store.example');
			check(
				mail && /rejected \(ERROR_ACCOUNT_CLOSED\)$/.test(mail.subject),
				'the alert e-mail was not received',
			);
			// No reason from the bank: the line ends with the code's name, not a dangling dash.
			check(
				/^Bank rejection: 801 - ERROR_ACCOUNT_CLOSED$/m.test(mail.text),
				'the rejection line is not "801 - ERROR_ACCOUNT_CLOSED"',
			);
			return [
				'4 polls asking for REJECTED cashouts only: starting point, nothing while the payout is pending, rejection detected, nothing repeated; alert sent to ' +
					mail.to.join(', ') +
					':',
				...mailLines(mail),
			];
		},
	},
	{
		title:
			'Alert on rejected cashouts, by notification: the service notifies the trigger’s webhook, the status is read, an alert e-mail goes out',
		file: 'alert-rejected-cashouts-webhook.json',
		async run(workflow, { engine, sandbox }) {
			// The trigger's production webhook, served over HTTP; each execution runs on n8n's engine.
			const hook = await startWebhookServer(
				engine,
				new WebhookRunner(engine, workflow, 'When a cashout is rejected'),
			);
			try {
				const payout = sandbox.control.addCashout({
					idMerchant: 1001,
					externalId: 'payout-demo-0003',
					country: 'CO',
					amount: 90,
					currency: 'USD',
					notificationUrl: hook.url,
				});
				const delivered = async () => {
					await sandbox.control.notifications.settle();
					await hook.idle();
				};
				// Sent to the bank: notified, read as DELIVERED, not an alert.
				sandbox.control.advanceCashout(payout.idCashout, 'DELIVERED');
				await delivered();
				check(hook.runs().length === 0, 'the DELIVERED notification started the workflow');
				// The bank rejects it; the service sends that notification twice.
				sandbox.control.notifications.duplicate(1);
				sandbox.control.advanceCashout(payout.idCashout, 'REJECTED', {
					code: 801,
					reason: 'Beneficiary account closed',
				});
				await delivered();
				const notifications = sandbox.control.notifications
					.list()
					.filter((notification) => notification.recordId === payout.idCashout);
				check(
					notifications.length === 3 &&
						notifications.every((notification) => notification.state === 'delivered'),
					'the service’s notifications were not all answered 2xx',
				);
				const runs = hook.runs();
				check(runs.length === 1, `the rejection started ${runs.length} executions instead of 1`);
				return runs[0];
			} finally {
				await hook.close();
			}
		},
		summarize(run, { mails, sandbox }) {
			check(!run.error, `the workflow failed: ${run.error?.message}`);
			const item = firstJson(run, 'When a cashout is rejected');
			check(
				item.rejection_code_name === 'ERROR_ACCOUNT_CLOSED',
				'the trigger did not read the rejection code',
			);
			const notifications = sandbox.control.notifications
				.list()
				.filter((notification) => notification.recordId === item.cashout_id);
			const answered = notifications.map((notification) => {
				const answer = JSON.parse(
					notification.attempts.at(-1)?.responseBody ?? '{}',
				) as IDataObject;
				return `${notification.recordStatus}${notification.duplicateOf ? ' (sent again)' : ''} → ${notification.attempts.at(-1)?.status} ${answer.outcome}`;
			});
			const mail = lastMailTo(mails, 'payouts-team@acme-store.example');
			check(
				mail && /rejected \(ERROR_ACCOUNT_CLOSED\)$/.test(mail.subject),
				'the alert e-mail was not received',
			);
			return [
				`3 notifications answered: ${answered.join('; ')}; one alert sent to ${mail.to.join(', ')}:`,
				...mailLines(mail),
			];
		},
	},
	{
		title:
			'Alert on new chargebacks: the trigger polls, a customer’s bank opens a chargeback on a deposit, an e-mail names the deposit, the amount and the status',
		file: 'alert-new-chargebacks.json',
		async run(workflow, { engine, sandbox }) {
			const trigger = await activatedTrigger(engine, workflow, 'When a chargeback arrives');
			const quiet = await trigger.poll();
			check(
				!quiet.error && quiet.items === null,
				'a poll without a new chargeback raised an alert',
			);
			// A completed card deposit is charged back after the starting point.
			const deposit = sandbox.control
				.deposits(1001)
				.find((candidate) => candidate.status === 'COMPLETED' && candidate.country === 'BR');
			check(deposit, 'the sandbox has no completed Brazilian deposit to charge back');
			const chargeback = sandbox.control.addChargeback({
				idMerchant: 1001,
				idDeposit: deposit.idDeposit,
			});
			const items = await pollReporting(
				trigger,
				'idChargeback',
				chargeback.idChargeback,
				'the new chargeback',
			);
			const again = await trigger.poll();
			check(again.items === null, 'a later poll reported the chargeback again');
			return await engine.run(workflow, { triggerItems: items });
		},
		summarize(run, { mails, sandbox }) {
			check(!run.error, `the workflow failed: ${run.error?.message}`);
			const item = firstJson(run, 'When a chargeback arrives');
			const chargeback = sandbox.control
				.chargebacks(1001)
				.find((candidate) => candidate.idChargeback === item.idChargeback);
			check(chargeback, `chargeback ${String(item.idChargeback)} is not the sandbox’s`);
			check(
				(item.event as IDataObject | undefined)?.type === 'newRecord',
				'the trigger did not report a new record',
			);
			const mail = lastMailTo(mails, 'disputes@acme-store.example');
			const subject = `Chargeback on deposit ${chargeback.idDeposit}: ${chargeback.amount} ${chargeback.currency} (${chargeback.status})`;
			check(mail?.subject === subject, `the alert e-mail "${subject}" was not received`);
			for (const line of [
				`Deposit: ${chargeback.idDeposit}`,
				`Amount: ${chargeback.amount} ${chargeback.currency}${chargeback.merchantCurrency !== chargeback.currency ? ` (${chargeback.merchantAmount} ${chargeback.merchantCurrency} to the merchant)` : ''}`,
				`Status: ${chargeback.status}${chargeback.inMediation ? ', in mediation' : ''}`,
			])
				check(mail.text.split(/\r?\n/).includes(line), `the alert e-mail lacks the line "${line}"`);
			return [
				`chargeback ${chargeback.idChargeback} on deposit ${chargeback.idDeposit} reported once; alert sent to ${mail.to.join(', ')}:`,
				...mailLines(mail),
			];
		},
	},
	{
		title:
			'Payouts from a spreadsheet: one cashout per CSV row, and a report of what failed and why',
		file: 'payouts-from-spreadsheet.json',
		summarize(run, { sandbox }) {
			check(!run.error, `the workflow failed: ${run.error?.message}`);
			const report = run.output('Payout report').map((item) => item.json);
			check(report.length === 6, `the report has ${report.length} rows instead of 6`);
			const row = (id: string) => report.find((line) => line.external_id === id);
			for (const id of ['payout-2026-0501', 'payout-2026-0502']) {
				check(
					row(id)?.result === 'paid out' && row(id)?.status === 'PENDING',
					`${id} was not paid out`,
				);
				check(
					sandbox.control.createdCashouts().filter((entry) => entry.request.external_id === id)
						.length === 1,
					`${id} is not exactly one cashout`,
				);
			}
			const failures: Array<[string, RegExp]> = [
				['payout-2026-0503', /e-mail or phone \(540\)/],
				['payout-2026-0504', /below the minimum \(533\)/],
				['payout-2026-0505', /Bank code 999 is not a bank of BR \(303\)/],
				['payout-2026-0506', /^Cashout in item 5 is invalid: amount must be/],
			];
			for (const [id, reason] of failures) {
				check(
					row(id)?.result === 'not paid out' && reason.test(String(row(id)?.reason)),
					`${id} is not reported as refused for the right reason: ${row(id)?.reason}`,
				);
				check(
					!sandbox.control.createdCashouts().some((entry) => entry.request.external_id === id),
					`${id} was paid out`,
				);
			}
			const file = run.output('Report as CSV')[0]?.binary?.data;
			check(file?.fileName === 'payout-report-2026-05.csv', 'no CSV report file');
			return [
				`${report.filter((line) => line.result === 'paid out').length} of ${report.length} rows paid out; report ${file.fileName}:`,
				...report.map(
					(line) =>
						`  ${line.external_id}: ${line.result}${line.cashout_id ? ` (cashout ${line.cashout_id}, ${line.status})` : ''}${line.reason ? ` — ${line.reason}` : ''}`,
				),
			];
		},
	},
	{
		title:
			'Re-issue a rejected payout: the trigger sees the rejection, a new cashout goes out with corrected bank details',
		file: 'reissue-rejected-payout.json',
		async run(workflow, { engine, sandbox }) {
			const trigger = await activatedTrigger(engine, workflow, 'When a payout is rejected');
			const payout = sandbox.control.addCashout({
				idMerchant: 1001,
				externalId: 'payout-demo-0003',
				country: 'BR',
				amount: 320,
				currency: 'BRL',
				clientDocument: '52998224725',
			});
			rejectedPayout(sandbox, payout, { code: 800, reason: 'Invalid bank account' });
			const items = await pollReporting(
				trigger,
				'idCashout',
				payout.idCashout,
				'the rejected payout',
			);
			const first = await engine.run(workflow, { triggerItems: items });
			// The same event once more (a replay, or a second worker): the re-issue is read back, not paid again.
			const replay = await engine.run(workflow, { triggerItems: items });
			const again = replay.output('Re-issue payout')[0]?.json;
			check(
				again?.already_created === true && again.external_id === 'payout-demo-0003-R1',
				'replaying the rejection did not read the re-issued payout back',
			);
			return first;
		},
		summarize(run, { sandbox }) {
			check(!run.error, `the workflow failed: ${run.error?.message}`);
			const reissued = firstJson(run, 'Re-issue payout');
			check(
				reissued.already_created === false && reissued.external_id === 'payout-demo-0003-R1',
				'no new payout with an external ID derived from the rejected one',
			);
			const created = sandbox.control
				.createdCashouts()
				.filter((entry) => entry.request.external_id === 'payout-demo-0003-R1');
			check(created.length === 1, `the re-issued payout is ${created.length} cashouts`);
			const request = created[0].request;
			check(
				request.bank_code === 237 && request.bank_account === '76543-2' && request.amount === 320,
				'the re-issue does not carry the corrected bank details and the amount',
			);
			return [
				`payout-demo-0003 rejected (${firstJson(run, 'Rejection details').rejection_code_name}); re-issued as cashout ${reissued.cashout_id} (${reissued.external_id}, ${reissued.cashout_status_name})`,
				`  to ${request.beneficiary_name} ${request.beneficiary_lastname}, bank ${request.bank_code} account ${request.bank_account}, ${request.amount} ${request.currency}; comments: ${request.comments}`,
				'  the same rejection replayed: read back as already_created, no second payout',
			];
		},
	},
	{
		title:
			'Refund a deposit: a completed Pix deposit found with Get Many, refunded in full, its refund read back',
		file: 'refund-deposit.json',
		summarize(run, { sandbox }) {
			const refund = firstJson(run, 'Refund deposit');
			const status = firstJson(run, 'Refund status');
			check(
				refund.already_requested === false && typeof refund.refund_id === 'number',
				'no refund was requested',
			);
			check(
				status.status === 'PENDING' && status.deposit_id === refund.deposit_id,
				'the refund status was not read back',
			);
			const created = sandbox.control
				.createdRefunds()
				.filter((entry) => entry.refundId === refund.refund_id);
			check(created.length === 1, 'the sandbox does not hold the refund');
			return [
				`deposit ${refund.deposit_id} (${status.merchant_invoice_id}): refund ${refund.refund_id} of ${status.amount} BRL requested, status ${status.status}`,
			];
		},
	},
	{
		title:
			'Payouts one row at a time (Loop Over Items): two identical rows are two payouts; a lost answer, n8n’s Retry and a re-run pay nobody twice',
		file: 'payouts-loop-over-items.json',
		async run(workflow, { engine, sandbox }) {
			// The service makes the second payout, but its answer is lost, and so are the answers to the
			// node's two resends (the same external ID): the execution fails there.
			sandbox.faults.add(lostCashoutAnswers(3, { skip: 1 }));
			const failed = await engine.run(workflow);
			check(failed.error, 'the execution should fail on the lost answer');
			// n8n's Retry from the executions list: a new execution that resumes at the failed node.
			const retried = await engine.retry(failed, workflow);
			check(!retried.error, `the retried execution failed: ${retried.error?.message}`);
			// The same workflow run again by hand on the same input: nothing is paid again, and the
			// node says so rather than reporting a payout it did not make (it cannot tell a re-run
			// from a second request from the same input).
			const again = await engine.run(workflow);
			const refusal = again.nodeError('Pay out')?.message ?? '';
			check(
				refusal ===
					'Cashout in item 0 was not created: it repeats a cashout an earlier execution requested from the same input',
				`the re-run did not refuse the repeat: ${refusal || 'no error'}`,
			);
			return retried;
		},
		summarize(run, { sandbox, nodeErrors }) {
			check(!run.error, `the workflow failed: ${run.error?.message}`);
			const report = run.output('Payroll report').map((item) => item.json);
			check(report.length === 3, `the report has ${report.length} rows instead of 3`);
			const made = sandbox.control
				.createdCashouts()
				.filter((entry) => entry.request.comments === 'Payroll 2026-11, one row at a time');
			check(
				made.length === 3,
				`the sandbox holds ${made.length} payouts of this payroll instead of 3`,
			);
			check(
				new Set(report.map((line) => line.external_id)).size === 3,
				'two rows shared an external ID',
			);
			const posts = sandbox.log
				.find('POST', '/v3/cashout')
				.filter((entry) => String(entry.rawBody).includes('one row at a time')).length;
			return [
				...payoutFailures(nodeErrors),
				`3 rows (two identical) → ${made.length} payouts, ${posts} creation requests in all`,
				...report.map(
					(line) =>
						`  ${String(line.external_id)}: ${String(line.result)}${line.cashout_id ? ` (cashout ${String(line.cashout_id)}, ${String(line.status)})` : ''}`,
				),
			];
		},
	},
];

/**
 * The payouts demo's two failures, on purpose: the lost answer it injects, then the refused re-run;
 * with the node errors n8n reported for them when they were kept (`npm run demo`).
 * @throws when n8n reported other node errors than those two.
 */
function payoutFailures(nodeErrors: readonly string[] | undefined): string[] {
	const fault =
		'fault injected: the service makes the second payout, but its answer is lost, and so are the answers to the node’s two resends';
	const failed = 'the first execution fails there';
	const rerun = 'n8n’s Retry resumes at the failed node; the workflow run again by hand is refused';
	if (!nodeErrors) return [fault, failed, rerun];
	const [lostAnswer, refusal, ...others] = nodeErrors;
	check(
		/could not be reached \(ECONNRESET\)$/.test(lostAnswer ?? '') &&
			/it repeats a cashout an earlier execution requested/.test(refusal ?? '') &&
			others.length === 0,
		`n8n reported other node errors than the lost answer and the refusal: ${nodeErrors.join('; ')}`,
	);
	return [
		fault,
		`${failed}; n8n reports the node error:`,
		`  ${lostAnswer}`,
		`${rerun}; n8n reports the node error:`,
		`  ${refusal}`,
	];
}

/** Runs one demo: reads its workflow file, prepares it, executes it and summarises the run. */
export async function runDemo(
	demo: Demo,
	context: DemoContext,
): Promise<{ run: WorkflowRun; lines: string[] }> {
	const original = readWorkflow(demo.file);
	const workflow = demo.prepare ? demo.prepare(original, context) : original;
	const run = demo.run ? await demo.run(workflow, context) : await context.engine.run(workflow);
	return { run, lines: demo.summarize(run, context) };
}
