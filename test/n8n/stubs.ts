/**
 * The demo checks (test/demo/demos.ts) take a `DemoContext` made for n8n-core in-process; on a real
 * n8n there is no in-process engine, so its `engine` refuses use, naming why.
 */
import type { DemoContext } from '../demo/demos';
import type { ReceivedMail } from '../demo/smtp-sink';
import type { Engine } from '../harness/engine';
import type { Sandbox } from '../sandbox';

/** A DemoContext for checks of executions that ran on a real n8n. */
export function demoContext(sandbox: Sandbox, mails: ReceivedMail[]): DemoContext {
	const engine = new Proxy({} as Engine, {
		get(_target, property) {
			throw new Error(
				`A demo used engine.${String(property)}: against a real n8n, workflows run through its REST API`,
			);
		},
	});
	return { engine, sandbox, mails };
}
