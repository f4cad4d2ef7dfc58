/**
 * Link check of the documentation: every relative link and #anchor in README.md, CONTRIBUTING.md,
 * docs/**\/*.md and test/**\/README.md must resolve. A link to a file must name a file or folder of
 * the repository; an anchor (`#credentials`, `docs/notifications.md#the-recipe`) must be the slug of
 * a heading of the target Markdown file, made the way GitHub makes it (lower case, punctuation
 * dropped, spaces as hyphens, `-1`, `-2` … for repeated headings), or an `id`/`name` given in HTML.
 * Links with a scheme (https:, mailto:) are not fetched. Code blocks and inline code are skipped.
 *
 * Run: `npx tsx test/scan/docs-links.ts` (prints each broken link as `file:line: link (reason)`;
 * exits 1 when one is broken, 0 otherwise). `--self-test` checks the slug rule on known headings.
 */
import { execFileSync } from 'child_process';
import { existsSync, readFileSync, statSync } from 'fs';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The Markdown files whose links are checked, relative to the repository root. */
function documentationFiles(): string[] {
	const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
		cwd: ROOT,
		encoding: 'utf8',
	})
		.split('\n')
		.filter((file) => file && existsSync(path.join(ROOT, file)));
	return files.filter(
		(file) =>
			file === 'README.md' ||
			file === 'CONTRIBUTING.md' ||
			(file.startsWith('docs/') && file.endsWith('.md')) ||
			(file.startsWith('test/') && path.basename(file) === 'README.md'),
	);
}

/**
 * The lines of a Markdown text with fenced code blocks blanked and inline code removed, so that
 * links and headings inside code are not read. Line numbers are kept.
 */
function proseLines(text: string): string[] {
	let fence: string | undefined;
	return text.split('\n').map((line) => {
		const marker = /^\s*(`{3,}|~{3,})/.exec(line);
		if (fence !== undefined) {
			if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length)
				fence = undefined;
			return '';
		}
		if (marker) {
			fence = marker[1];
			return '';
		}
		return line.replace(/(`+)[\s\S]*?\1/g, (code) => ' '.repeat(code.length));
	});
}

/**
 * GitHub's slug of a heading's text: inline code keeps its text, links and emphasis keep their
 * text, then lower case, every character that is not a letter, mark, digit, connector (`_`),
 * space or hyphen dropped, and each space made a hyphen.
 */
export function githubSlug(heading: string): string {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
		.replace(/<[^>]+>/g, '') // HTML tags
		.replace(/`([^`]*)`/g, '$1'); // inline code: its text
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** Every anchor of a Markdown file: its headings' slugs (repeats numbered) and HTML ids/names. */
function anchorsOf(file: string): Set<string> {
	const cached = anchorCache.get(file);
	if (cached) return cached;
	const anchors = new Set<string>();
	const counts = new Map<string, number>();
	const raw = readFileSync(file, 'utf8').split('\n');
	let fence: string | undefined;
	for (const line of raw) {
		const marker = /^\s*(`{3,}|~{3,})/.exec(line);
		if (fence !== undefined) {
			if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length)
				fence = undefined;
			continue;
		}
		if (marker) {
			fence = marker[1];
			continue;
		}
		const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (heading) {
			const base = githubSlug(heading[1]);
			const seen = counts.get(base) ?? 0;
			counts.set(base, seen + 1);
			anchors.add(seen === 0 ? base : `${base}-${seen}`);
		}
		for (const html of line.matchAll(/<[a-z]+[^>]*\s(?:id|name)="([^"]+)"/gi)) anchors.add(html[1]);
	}
	anchorCache.set(file, anchors);
	return anchors;
}

/** Link targets of one line: inline links and images `[t](target "title")`, and `[ref]: target`. */
function linkTargets(line: string): string[] {
	const targets: string[] = [];
	for (const match of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
		targets.push(match[1]);
	}
	const reference = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
	if (reference) targets.push(reference[1]);
	for (const match of line.matchAll(/<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"/gi))
		targets.push(match[1]);
	return targets;
}

interface Broken {
	file: string;
	line: number;
	link: string;
	reason: string;
}

/** Why `link`, found in `file`, does not resolve, or undefined when it does. */
function problem(file: string, link: string): string | undefined {
	if (link === '') return 'empty link';
	if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return undefined; // https:, mailto: …: not fetched
	const hashAt = link.indexOf('#');
	const pathPart = decodeURIComponent(hashAt === -1 ? link : link.slice(0, hashAt));
	const anchor = hashAt === -1 ? undefined : decodeURIComponent(link.slice(hashAt + 1));
	const target =
		pathPart === ''
			? path.join(ROOT, file)
			: path.resolve(path.join(ROOT, path.dirname(file)), pathPart);
	if (!target.startsWith(ROOT)) return 'points outside the repository';
	if (!existsSync(target)) return `no file ${path.relative(ROOT, target)}`;
	if (anchor === undefined || anchor === '') return undefined;
	if (statSync(target).isDirectory() || !target.endsWith('.md')) {
		return `anchor on ${path.relative(ROOT, target)}, which is not a Markdown file`;
	}
	if (!anchorsOf(target).has(anchor)) {
		return `no heading #${anchor} in ${path.relative(ROOT, target)}`;
	}
	return undefined;
}

/** Every broken link of the documentation files. */
export function brokenLinks(files = documentationFiles()): Broken[] {
	const broken: Broken[] = [];
	for (const file of files) {
		const lines = proseLines(readFileSync(path.join(ROOT, file), 'utf8'));
		lines.forEach((line, index) => {
			for (const link of linkTargets(line)) {
				const reason = problem(file, link);
				if (reason) broken.push({ file, line: index + 1, link, reason });
			}
		});
	}
	return broken;
}

/** Known GitHub slugs, so that the rule above is checked against what GitHub does. */
function selfTest(): void {
	const cases: Array<[string, string]> = [
		['Money moves once', 'money-moves-once'],
		[
			'Payments Service Notification Trigger (webhook)',
			'payments-service-notification-trigger-webhook',
		],
		['Development: demo, tests, sandbox', 'development-demo-tests-sandbox'],
		['3.2 Periods and windows', '32-periods-and-windows'],
		['The AI Agent check (`agent.ts`)', 'the-ai-agent-check-agentts'],
		[
			'Notification Trigger: copies at the same moment, the recipe, at-least-once',
			'notification-trigger-copies-at-the-same-moment-the-recipe-at-least-once',
		],
		['n8n 3.0 and Docker', 'n8n-30-and-docker'],
		['Once per change — the recipe', 'once-per-change--the-recipe'],
	];
	const wrong = cases.filter(([heading, slug]) => githubSlug(heading) !== slug);
	for (const [heading, slug] of wrong) {
		console.error(`slug of "${heading}": ${githubSlug(heading)}, expected ${slug}`);
	}
	if (wrong.length > 0) process.exit(1);
	console.log(`docs-links self-test: ${cases.length} slugs as GitHub makes them`);
}

if (require.main === module) {
	if (process.argv.includes('--self-test')) {
		selfTest();
	} else {
		const files = documentationFiles();
		const broken = brokenLinks(files);
		for (const entry of broken) {
			console.error(`${entry.file}:${entry.line}: ${entry.link} (${entry.reason})`);
		}
		console.log(
			`docs-links: ${files.length} files, ${broken.length} broken link${broken.length === 1 ? '' : 's'}`,
		);
		if (broken.length > 0) process.exit(1);
	}
}
