import type { ChildProcessByStdio } from 'child_process';
import type { Readable } from 'stream';

/**
 * Waits for a report sandbox child process (test/bench/reportSandbox.ts) to print its base URL and
 * its own totals of the seeded records (`TOTALS {json}`); rejects when it exits first. Used by
 * `npm run bench -- report` and `npm run bench:n8n`.
 */
export async function reportSandboxReady<Totals>(
	child: ChildProcessByStdio<null, Readable, null>,
): Promise<{ baseUrl: string; totals: Totals }> {
	return await new Promise((resolve, reject) => {
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const url = /Base URL[^:]*: (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
			const totals = /TOTALS (.*)\n/.exec(output);
			if (url && totals) resolve({ baseUrl: url[1], totals: JSON.parse(totals[1]) as Totals });
		});
		child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}: ${output}`)));
	});
}
