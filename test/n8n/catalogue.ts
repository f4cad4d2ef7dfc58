/**
 * What the end-to-end runs put into n8n: the credentials (values from the sandbox) and every example
 * workflow of test/workflows, prepared the way test/demo prepares them and judged by the same checks.
 *
 * Adding a workflow: drop its n8n export into test/workflows. It is imported and, when it starts
 * from a Manual Trigger or a Schedule Trigger (which n8n runs once when a run is started from it,
 * as the editor's "Execute workflow" does), run and required to succeed; give it an entry in test/demo/demos.ts
 * (`DEMOS`) to prepare it and check what it must show. A workflow that cannot run manually must be
 * named in {@link NOT_MANUAL} with the reason (and, for an alert, get an alert scenario in
 * scenarios.ts).
 */
import { readdirSync } from 'fs';
import path from 'path';
import type { IDataObject, INode } from 'n8n-workflow';

import { DEMOS, type Demo } from '../demo/demos';
import { sandboxCredentials, smtpSinkData } from '../harness/fixtures';
import { readWorkflow, type WorkflowJson } from '../harness/engine';
import { PACKAGE_ROOT } from '../harness/packageInfo';
import type { Sandbox } from '../sandbox';

/** The node types a run can be started from by hand: n8n runs a Schedule Trigger once then. */
const MANUAL_START_TYPES = ['n8n-nodes-base.manualTrigger', 'n8n-nodes-base.scheduleTrigger'];

/** The workflows of test/workflows that do not start from a Manual or Schedule Trigger, and why. */
export const NOT_MANUAL: Record<string, string> = {
	'alert-rejected-cashouts.json':
		'starts from the Payments Service Trigger (polling): activated and driven by the "rejected cashout" alert scenario',
	'alert-rejected-cashouts-webhook.json':
		'starts from the Payments Service Notification Trigger (webhook): activated and driven by the "rejected cashout, notified" scenario',
	'alert-new-chargebacks.json':
		'starts from the Payments Service Trigger (polling): activated and driven by the "new chargeback" alert scenario',
	'reissue-rejected-payout.json':
		'starts from the Payments Service Trigger (polling): activated and driven by the "re-issue a rejected payout" scenario',
};

/** The id the example workflows give the SMTP credential of their Send Email nodes. */
export const SMTP_CREDENTIAL_ID = 'cred-smtp';

/** A credential to create in n8n, under the id the example workflows use for it. */
export interface CredentialSpec {
	exportedId: string;
	name: string;
	type: string;
	data: IDataObject;
	/** Whether its test (the Test button) is part of the checks. */
	test: boolean;
}

/** The four credentials of this package pointing at `sandbox`, and an SMTP credential for `smtpPort`. */
export function credentialSpecs(sandbox: Sandbox, smtpPort: number): CredentialSpec[] {
	return [
		...sandboxCredentials(sandbox).map(({ id, name, type, data }) => ({
			exportedId: id,
			name,
			type,
			data,
			test: true,
		})),
		{
			exportedId: SMTP_CREDENTIAL_ID,
			name: 'SMTP (local sink)',
			type: 'smtp',
			data: smtpSinkData(smtpPort),
			test: false,
		},
	];
}

/** One file of test/workflows and how the runs treat it. */
export interface CatalogueEntry {
	file: string;
	workflow: WorkflowJson;
	/** The demo that prepares and checks it, if any. */
	demo?: Demo;
	/** The node a manual run starts from; undefined for workflows of NOT_MANUAL. */
	manualTrigger?: string;
}

/**
 * Reads every workflow of test/workflows.
 * @throws when a workflow has no Manual or Schedule Trigger and is not in NOT_MANUAL, or NOT_MANUAL names a
 *   file that does not exist, so the table stays true.
 */
export function loadCatalogue(): CatalogueEntry[] {
	const folder = path.join(PACKAGE_ROOT, 'test', 'workflows');
	const files = readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.sort();
	for (const file of Object.keys(NOT_MANUAL)) {
		if (!files.includes(file))
			throw new Error(
				`NOT_MANUAL (test/n8n/catalogue.ts) names ${file}, which is not in test/workflows`,
			);
	}
	return files.map((file) => {
		const workflow = readWorkflow(file);
		const trigger = workflow.nodes.find((node) => MANUAL_START_TYPES.includes(node.type));
		if (!trigger && !NOT_MANUAL[file]) {
			throw new Error(
				`test/workflows/${file} has no Manual or Schedule Trigger: name it in NOT_MANUAL (test/n8n/catalogue.ts) with the reason`,
			);
		}
		return {
			file,
			workflow,
			demo: DEMOS.find((demo) => demo.file === file),
			manualTrigger: NOT_MANUAL[file] ? undefined : trigger?.name,
		};
	});
}

/**
 * Points every node's credentials at the credentials created in n8n.
 * @throws naming the node when a workflow uses a credential id that was not created.
 */
export function mapCredentials(
	workflow: WorkflowJson,
	createdIds: Map<string, string>,
): WorkflowJson {
	const nodes = workflow.nodes.map((node): INode => {
		if (!node.credentials) return node;
		const credentials = Object.fromEntries(
			Object.entries(node.credentials).map(([type, reference]) => {
				const id = reference.id ? createdIds.get(reference.id) : undefined;
				if (!id)
					throw new Error(
						`"${workflow.name}" node "${node.name}" uses credential ${reference.id ?? reference.name}, which the run did not create`,
					);
				return [type, { id, name: reference.name }];
			}),
		);
		return { ...node, credentials };
	});
	return { ...workflow, nodes };
}
