/**
 * What an AI agent is told about each operation when the node is used as a tool (Payments Service
 * Tool): what the operation does, what it returns, and the units and formats of what it takes. n8n
 * sends a tool's `toolDescription` parameter to the model as the tool's description; the registry
 * gives the tool variant one per operation with these texts as defaults (buildToolDescriptions in
 * registry.ts), shown only on the tool (`@tool`), where the workflow builder can still edit them.
 * Keyed by `<resource>.<operation>`; a test requires one for every operation of the registry.
 */
import { RECORD_LISTS, type RecordListDefinition } from '../reporting/lists';

const PERIOD =
	'Period picks creation dates in UTC (today, yesterday, last24Hours, last7Days, last30Days, last90Days, thisMonth, lastMonth, or custom with Created From/To as ISO 8601 date-times)';
const LIST = `Returns one item per record, newest first, up to Limit (default 50) unless Return All. ${PERIOD}.`;

const SUMMARY = `Answers totals questions ("how much did we pay out to Brazil yesterday?") in a few small items, without listing records. ${PERIOD}; Filters (Country, Status…) narrow it. Group By takes any of status, currency, country, paymentMethod, day, hour (day and hour in Time Zone, IANA name, default the workflow's). Returns one item per group and a last item with total: true; each has count and, per amount field, {<currency>: {count, sum, min, max, average}} as exact decimal texts, each currency apart (never added together). With Convert Totals To (e.g. USD), each item also has converted: the sums in that one currency at the service's exchange rates, and the last item exchangeRates: each rate per USD and when it was read. Write Records to File (off by default) also puts every record counted into a CSV file (binary field data) on the last item, with file: {fileName, rows, columns}, from the same read.`;
const EXPORT = `Writes every record of the period to a CSV file (binary field data), not to items: use it to attach or save a report, not to answer questions. ${PERIOD}. Returns the file name and the number of rows.`;

/** The tool descriptions of a reporting list's Get Many, Summarize and Export to File. */
function reportingToolDescriptions(list: RecordListDefinition): Record<string, string> {
	const alsoCalled = list.alsoCalled ? ` (${list.alsoCalled})` : '';
	return {
		[`${list.resource}.getMany`]: `Lists ${list.plural}${alsoCalled}. ${LIST} ${list.recordSummary}`,
		[`${list.resource}.summarize`]: `Totals of ${list.plural}. ${SUMMARY}`,
		[`${list.resource}.exportToFile`]: `Exports ${list.plural}. ${EXPORT}`,
	};
}

export const TOOL_DESCRIPTIONS: Readonly<Record<string, string>> = {
	...Object.assign({}, ...RECORD_LISTS.map(reportingToolDescriptions)),
	'balance.get':
		'Reads the merchant’s total available balance. Takes nothing. Returns one item per balance entry (one per currency and type).',
	'balance.getDailyReport': `Reads the balance report, one item per day of the period. ${PERIOD}.`,
	'balance.reconcile':
		'Checks whether the money adds up: sets each day’s balance report beside the deposits, cashouts, credit/debit notes and settlements of that day. Period picks UTC days (yesterday by default, today, thisMonth, lastMonth, or custom with Created From/To as ISO 8601 dates). Returns one item per day and currency with reconciled (true or false), differences (the names of the checks that failed), and per term (depositTotal, depositFeeTotal, cashoutTotal, noteTotal, settlementTotal, cancelledSettlementTotal) the report’s value, the lists’ sum and the difference (lists minus report) as exact decimal texts; net (the report’s terms against its netAmount) and balance (the previous totalBalance plus netAmount against totalBalance). The rule is inferred from the field names and is in the output.',
	'bank.getMany':
		'Lists the bank codes a cashout to a country can use. Takes Country (2-letter ISO code, e.g. BR). Returns one item per bank with its code and name; use the code as Bank Code of Create a cashout.',
	'cashout.cancel':
		'Cancels a cashout (payout) the bank has not received yet; moves no money. Takes Cashout ID (a whole number) and the cashout’s External ID. Returns the new status; a refusal says why (e.g. already sent to the bank).',
	'cashout.create':
		'Sends money: creates a cashout (payout) to a beneficiary’s bank account. Takes External ID (your unique reference; a repeat with the same one returns the existing cashout instead of paying twice), Country (2-letter ISO code), Amount (decimal, at most 2 places, in the country’s currency unless Currency is USD), the beneficiary’s name, document and bank details. Returns the cashout ID, its status and already_created (true when the External ID had been used).',
	'cashout.getStatus':
		'Reads the status of one cashout, by Cashout ID (a whole number) or by External ID. Returns cashout_status_name (PENDING, DELIVERED, COMPLETED, REJECTED, CANCELLED, ON_HOLD…) and, when rejected, the bank’s rejection code and reason.',
	'cashout.putOnHold':
		'Stops a PENDING cashout from being processed until it is released; moves no money. Takes Cashout ID (a whole number). Returns the cashout’s new status; a refusal says why (e.g. it is no longer PENDING).',
	'cashout.releaseHold':
		'Lets a cashout on hold be processed again (it will be paid). Takes Cashout ID (a whole number). Returns the cashout’s new status.',
	'deposit.create':
		'Charges a customer: creates a deposit (pay-in). Takes Invoice ID (your unique reference), Country (2-letter ISO code), Amount (decimal, at most 2 places, in the country’s currency unless Currency is USD), Payment Method and the payer’s details; without full payer details it is HOSTED (the customer completes it on a checkout page). Returns the deposit ID, its checkout URL or payment data (e.g. a QR code) and status.',
	'deposit.flagForReview':
		'Opens a support ticket asking the service to review one deposit, optionally with files, and submits it. Takes Deposit ID (a whole number), optional files (binary input) with their document type. Returns the ticket.',
	'deposit.flagReversalForReview':
		'Opens a support ticket asking the service to review a deposit reversal, optionally with files, and submits it. Takes Deposit ID (a whole number), optional files (binary input) with their document type. Returns the ticket.',
	'deposit.getStatus':
		'Reads the current status of one deposit by Deposit ID (a whole number). Returns its status, amount and currency.',
	'exchangeRate.get':
		'Reads the exchange rate of a country’s local currency against USD. Takes Country (2-letter ISO code, e.g. MX) and Amount (USD, a number ≥ 0, default 1). Returns the rate and the amount converted to the local currency.',
	'paymentMethod.getMany':
		'Lists the payment methods deposits can use in a country. Takes Country (2-letter ISO code). Returns one item per method with its code (use it as Payment Method Code) and name.',
	'refund.create':
		'Returns money to a customer: refunds a deposit in full, or in part with Amount (decimal, at most 2 places, in the deposit’s currency). The deposit is identified by its Deposit ID (a whole number) or invoice ID. A repeat with the same idempotency key requests nothing new. Returns the refund ID and status.',
	'refund.getStatus':
		'Reads the current status of one refund by Refund ID (a whole number). Returns its status, amount and currency, and optionally its voucher as a file.',
	'session.logOut':
		'Ends the stored login session at once; the next request logs in again. Takes nothing. Returns confirmation.',
	'ticket.addAttachment':
		'Attaches a file (binary input) to a draft support ticket. Takes Ticket ID (a whole number) and the document type. Returns the attachment’s details.',
	'ticket.confirm':
		'Submits a draft support ticket to the support team. Takes Ticket ID (a whole number). Returns the ticket’s new state.',
	'ticket.createDraft':
		'Creates a support ticket in draft state (submit it with Confirm a ticket). Takes Type and Description, optionally Category and Reference ID (e.g. a deposit ID). Returns the ticket ID.',
};
