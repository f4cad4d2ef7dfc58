/**
 * Human review of a money-moving tool call, as the README's "AI agents" section sets it up: n8n's
 * AI Agent (typeVersion 3) with the Payments Service Tool (Cashout → Put On Hold) connected to the
 * Tool input of Send Email's human-review tool (`emailSendHitlTool`, n8n's "Human in the Loop"
 * tools), and that node to the agent. The scripted OpenAI mock of agent.ts asks for the hold; n8n
 * e-mails the reviewer (the SMTP sink) and the execution waits. The step then follows the e-mail's
 * links as a reviewer would:
 * - Disapprove: the execution finishes, the model is told the call was rejected, and the service
 *   receives nothing;
 * - Approve: the call runs once, the cashout is on hold, the model gets the answer.
 */
import type { INode } from 'n8n-workflow';

import type { WorkflowJson } from '../harness/engine';
import { AGENT_CONNECTIONS, agentNodes, holdCashoutTool, startOpenAiMock } from './agent';
import { SMTP_CREDENTIAL_ID } from './catalogue';
import { toWorkflowRun } from './execution';
import { waitFor } from './processes';
import { addPayout, EXECUTION_TIMEOUT_MS, need, type RunState } from './state';

/** The node type n8n derives from Send Email's Send and Wait operation for reviewing tool calls. */
export const EMAIL_REVIEW_TOOL = 'n8n-nodes-base.emailSendHitlTool';

/** What a reviewer's browser sends (Chromium on Linux). */
const BROWSER_USER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** Manual Trigger → AI Agent; Hold cashout → Review by e-mail → AI Agent (both as ai_tool). */
function reviewWorkflow(
	prompt: string,
	openAiCredentialId: string,
	credentialIds: Map<string, string>,
	reviewer: string,
): WorkflowJson {
	const hold = holdCashoutTool(credentialIds);
	const nodes: INode[] = [
		...agentNodes(prompt, openAiCredentialId, 3),
		{
			id: 'review',
			name: 'Review by e-mail',
			type: EMAIL_REVIEW_TOOL,
			typeVersion: 2.1,
			position: [480, 240],
			webhookId: `review-${Date.now()}`,
			parameters: {
				fromEmail: 'agent@acme-store.example',
				toEmail: reviewer,
				subject: 'Approve a payout action',
				approvalOptions: { values: { approvalType: 'double' } },
				options: {},
			},
			credentials: {
				smtp: {
					id: credentialIds.get(SMTP_CREDENTIAL_ID) ?? SMTP_CREDENTIAL_ID,
					name: 'SMTP (local sink)',
				},
			},
		},
		hold,
	];
	return {
		name: `Agent with review: ${prompt.slice(0, 40)}`,
		nodes,
		connections: {
			...AGENT_CONNECTIONS,
			'Hold cashout': { ai_tool: [[{ node: 'Review by e-mail', type: 'ai_tool', index: 0 }]] },
			'Review by e-mail': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

/** The review links of an e-mail n8n sent (its HTML buttons), by what they answer. */
function reviewLinks(raw: string): { approve: string; disapprove: string } {
	// The HTML part is quoted-printable: soft line breaks and `=3D` for `=`.
	const html = raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
	const links = [...html.matchAll(/href="([^"]*webhook-waiting[^"]*)"/g)].map((match) =>
		match[1].replace(/&amp;/g, '&'),
	);
	const approve = links.find((link) => new URL(link).searchParams.get('approved') === 'true');
	const disapprove = links.find((link) => new URL(link).searchParams.get('approved') === 'false');
	if (!approve || !disapprove)
		throw new Error(`the review e-mail has no Approve and Disapprove links: ${html.slice(0, 600)}`);
	return { approve, disapprove };
}

/**
 * The human-review step of `npm run test:n8n` (n8n versions that offer the review tools). Throws
 * on the first thing that is not as it must be.
 */
export async function reviewStep(state: RunState): Promise<string> {
	const client = need(state.client, 'the REST client');
	const sandbox = need(state.sandbox, 'the sandbox');
	const smtp = need(state.smtp, 'the SMTP sink');
	const types = await client.typeNames('nodes');
	if (!types.includes(EMAIL_REVIEW_TOOL))
		throw new Error(`n8n ${state.options.n8nVersion} offers no ${EMAIL_REVIEW_TOOL}`);
	const newCashout = (label: string) =>
		addPayout(sandbox, `payout-review-${label}`, ['MX', 800, 'MXN']);
	const declined = newCashout('declined');
	const approved = newCashout('approved');
	const prompts = { declined: 'Hold the first payout', approved: 'Hold the second payout' };
	// The review node's parameters are not the model's to fill: the gated tool's arguments are
	// {toolParameters, hitlParameters}.
	const mock = await startOpenAiMock(
		new Map([
			[
				prompts.declined,
				[
					{
						tool: 'Hold_cashout',
						args: { toolParameters: { cashoutId: String(declined.idCashout) }, hitlParameters: {} },
					},
				],
			],
			[
				prompts.approved,
				[
					{
						tool: 'Hold_cashout',
						args: { toolParameters: { cashoutId: String(approved.idCashout) }, hitlParameters: {} },
					},
				],
			],
		]),
	);
	const holds = (id: number) =>
		sandbox.log
			.find('PUT', '/v3/cashout/status')
			.filter((entry) => (entry.rawBody ?? '').includes(String(id))).length;
	const status = (id: number) =>
		sandbox.control.cashouts(1001).find((cashout) => cashout.idCashout === id)?.status;
	try {
		const credentialId = await client.createCredential({
			name: 'OpenAI mock (review)',
			type: 'openAiApi',
			data: { apiKey: 'sk-mock', url: `${mock.url}/v1` },
		});
		const run = async (prompt: string, reviewer: string, answer: 'approve' | 'disapprove') => {
			const workflow = reviewWorkflow(prompt, credentialId, state.credentialIds, reviewer);
			const stored = await client.createWorkflow(workflow);
			const id = await client.runManually({ ...workflow, ...stored }, 'Start');
			const mail = await waitFor(
				`the review e-mail to ${reviewer}`,
				async () => smtp.mails.find((candidate) => candidate.to.includes(reviewer)),
				{ timeoutMs: EXECUTION_TIMEOUT_MS, intervalMs: 250 },
			);
			// n8n sends the e-mail from the node, then saves the execution as waiting: on a loaded
			// machine the e-mail arrives first.
			const waiting = await waitFor(
				`execution ${id} to wait for the review`,
				async () => {
					const { status } = await client.execution(id);
					return status !== 'running' && status !== 'new' && status;
				},
				{ timeoutMs: EXECUTION_TIMEOUT_MS, intervalMs: 100 },
			);
			if (waiting !== 'waiting')
				throw new Error(`execution ${id} is "${waiting}" while the review is open`);
			const link = reviewLinks(mail.raw)[answer];
			// As a reviewer's browser: n8n answers a link opened by a bot (its user agent judged by
			// isbot, e.g. Node's fetch) with an empty page and leaves the execution waiting.
			const response = await fetch(link, { headers: { 'user-agent': BROWSER_USER_AGENT } });
			if (!response.ok)
				throw new Error(`the ${answer} link answered ${response.status}: ${await response.text()}`);
			const execution = await client.waitForExecution(id, EXECUTION_TIMEOUT_MS);
			const result = await toWorkflowRun(client, execution);
			if (execution.status !== 'success')
				throw new Error(
					`execution ${id} ended "${execution.status}": ${result.error?.message ?? 'no error message'}`,
				);
			return String(result.output('AI Agent')[0]?.json.output ?? '');
		};

		const holdsBeforeDecline = holds(declined.idCashout);
		const declinedAnswer = await run(
			prompts.declined,
			'reviewer-1@acme-store.example',
			'disapprove',
		);
		if (
			holds(declined.idCashout) !== holdsBeforeDecline ||
			status(declined.idCashout) !== 'PENDING'
		)
			throw new Error(
				`a disapproved hold reached the service (${holds(declined.idCashout)} requests; status ${status(declined.idCashout)})`,
			);
		if (!/rejected/i.test(declinedAnswer))
			throw new Error(
				`the model was not told the call was rejected: ${declinedAnswer.slice(0, 300)}`,
			);

		const approvedAnswer = await run(prompts.approved, 'reviewer-2@acme-store.example', 'approve');
		if (holds(approved.idCashout) !== 1 || status(approved.idCashout) !== 'ON_HOLD')
			throw new Error(
				`an approved hold sent ${holds(approved.idCashout)} requests; status ${status(approved.idCashout)}`,
			);
		if (!/ON_HOLD/.test(approvedAnswer))
			throw new Error(`the model did not get the hold's answer: ${approvedAnswer.slice(0, 300)}`);
		return [
			`Disapprove: execution waited for the e-mail review, cashout ${declined.idCashout} got no request and stays PENDING, the model was told the call was rejected`,
			`Approve: one hold request, cashout ${approved.idCashout} ON_HOLD, the model got its answer`,
		].join('\n');
	} finally {
		await mock.close();
	}
}
