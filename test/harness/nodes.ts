/** Nodes of workflows built in code (a module of its own: the real-n8n tools load it without n8n's engine). */
import type { INode, INodeParameters } from 'n8n-workflow';

import { PACKAGE_NAME } from './packageInfo';

/**
 * A node of `type` at `typeVersion` with `parameters`, for a workflow built in code: its id made
 * from its name, at the canvas origin unless `extra` says otherwise.
 */
export function workflowNode(
	name: string,
	type: string,
	typeVersion: number,
	parameters: INodeParameters = {},
	extra: Partial<INode> = {},
): INode {
	const id = name.toLowerCase().replace(/\W+/g, '-');
	return { id, name, type, typeVersion, position: [0, 0], parameters, ...extra };
}

/** n8n's Manual Trigger (version 1), named `name`. */
export const manualTrigger = (name = 'Manual'): INode =>
	workflowNode(name, 'n8n-nodes-base.manualTrigger', 1);

/** This package's Payments Service node (version 1) named `name`, with `parameters`. */
export const paymentsServiceNode = (
	name: string,
	parameters: INodeParameters,
	extra: Partial<INode> = {},
): INode => workflowNode(name, `${PACKAGE_NAME}.paymentsService`, 1, parameters, extra);
