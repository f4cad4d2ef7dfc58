/**
 * Repository checks run by `npm run lint` (not by the tests: they judge the repository's text, not
 * the package's behaviour):
 * - no file refers to a path outside the repository (the interface and notes the code was written
 *   from are not part of it; rules are cited from docs/service-rules.md);
 * - every "service rules §N" cited names a section of docs/service-rules.md;
 * - the layout's import rules (CONTRIBUTING.md, "Layout"): no import cycle in nodes/ and credentials/ (madge),
 *   and nothing below actions/ (auth, bodies, codes, idempotency, parameters, reference, reporting, transport,
 *   trigger, and the trigger nodes) imports from actions/.
 * Prints what it found; exits 1 when a check fails.
 */
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import madge from 'madge';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const SELF = 'test/scan/repository.ts';

/** Every file git tracks (and the untracked ones it does not ignore), as a reader of the repository gets them. */
function repositoryFiles(): string[] {
	return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
		cwd: ROOT,
		encoding: 'utf8',
	})
		.split('\n')
		.filter(
			(file) => file && !file.endsWith('package-lock.json') && !/\.(png|svg|tgz)$/.test(file),
		);
}

/** Files that name a path outside the repository. */
export function filesReferringOutside(files: string[]): string[] {
	const outside =
		/(\.\.\/shared\/|\/work\/|shared\/(spec|API-NOTES|CONVENTIONS)|API-NOTES|payments-service-interface\.md)/;
	return files
		.filter((file) => file !== SELF)
		.filter((file) => outside.test(readFileSync(path.join(ROOT, file), 'utf8')));
}

/** Cited "service rules §N" sections (with a file citing each) that docs/service-rules.md lacks, and how many were cited. */
export function unknownRuleCitations(files: string[]): {
	unknown: Array<[string, string]>;
	cited: number;
} {
	const rules = readFileSync(path.join(ROOT, 'docs', 'service-rules.md'), 'utf8');
	const sections = new Set(
		[...rules.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((match) => match[1]),
	);
	const cited = new Map<string, string>();
	for (const file of files.filter((name) => /\.(ts|md)$/.test(name))) {
		const text = readFileSync(path.join(ROOT, file), 'utf8');
		for (const match of text.matchAll(/service\s+(?:\*\s+)?rules\s+§(\d+(?:\.\d+)?)/g))
			cited.set(match[1], file);
	}
	return { unknown: [...cited].filter(([section]) => !sections.has(section)), cited: cited.size };
}

/** Folders and files of nodes/PaymentsService that must not import from actions/. */
const BELOW_ACTIONS =
	/^nodes\/PaymentsService\/(auth|bodies|codes|idempotency|parameters|reference|reporting|transport|trigger)\/|^nodes\/PaymentsService\/PaymentsService\w*Trigger\.node\.ts$/;

/** Import cycles, and imports from actions/ by code below it (`file → imported`). */
export async function importProblems(): Promise<{
	cycles: string[][];
	upward: string[];
	files: number;
}> {
	const graph = await madge(['nodes', 'credentials'], { baseDir: ROOT, fileExtensions: ['ts'] });
	const dependencies = graph.obj();
	const upward = Object.entries(dependencies).flatMap(([file, imported]) =>
		BELOW_ACTIONS.test(file)
			? imported
					.filter((target) => target.startsWith('nodes/PaymentsService/actions/'))
					.map((target) => `${file} → ${target}`)
			: [],
	);
	return { cycles: graph.circular(), upward, files: Object.keys(dependencies).length };
}

async function main(): Promise<number> {
	const files = repositoryFiles();
	const problems: string[] = [];
	const imports = await importProblems();
	if (imports.files < 50)
		problems.push(`madge read only ${imports.files} files of nodes/ and credentials/`);
	if (imports.cycles.length)
		problems.push(`import cycles: ${imports.cycles.map((cycle) => cycle.join(' > ')).join('; ')}`);
	if (imports.upward.length)
		problems.push(`imports from actions/ below it: ${imports.upward.join(', ')}`);
	const outside = filesReferringOutside(files);
	if (outside.length)
		problems.push(`files that refer to a path outside the repository: ${outside.join(', ')}`);
	const { unknown, cited } = unknownRuleCitations(files);
	if (cited < 10)
		problems.push(
			`only ${cited} service-rules sections are cited; the citation pattern no longer matches the code`,
		);
	if (unknown.length)
		problems.push(
			`cited sections missing from docs/service-rules.md: ${unknown.map(([section, file]) => `§${section} (${file})`).join(', ')}`,
		);
	if (problems.length) {
		console.error(`repository checks failed:\n- ${problems.join('\n- ')}`);
		return 1;
	}
	console.log(
		`repository checks: passed (${files.length} files, ${cited} service-rules sections cited, all in docs/service-rules.md; ${imports.files} modules, no import cycle, nothing below actions/ imports it)`,
	);
	return 0;
}

main().then(
	(code) => (process.exitCode = code),
	(error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	},
);
