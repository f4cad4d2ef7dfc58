import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Every file git tracks (and the untracked ones it does not ignore), as a reader of the repository gets them. */
function repositoryFiles(): string[] {
	return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
		.split('\n')
		.filter((file) => file && !file.endsWith('package-lock.json') && !/\.(png|svg|tgz)$/.test(file));
}

describe('the repository stands on its own', () => {
	test('no file refers to a path outside the repository; rules are cited from docs/service-rules.md', () => {
		// The interface and notes the code was written from are not part of the repository.
		const outside = /(\.\.\/shared\/|\/work\/|shared\/(spec|API-NOTES|CONVENTIONS)|API-NOTES|payments-service-interface\.md)/;
		const offenders = repositoryFiles()
			.filter((file) => file !== 'test/unit/repository.test.ts')
			.filter((file) => outside.test(readFileSync(path.join(ROOT, file), 'utf8')));
		expect(offenders).toEqual([]);
	});

	test('every "service rules §N" cited in the code names a section of docs/service-rules.md', () => {
		const rules = readFileSync(path.join(ROOT, 'docs', 'service-rules.md'), 'utf8');
		const sections = new Set([...rules.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((match) => match[1]));
		const cited = new Map<string, string>();
		for (const file of repositoryFiles().filter((name) => /\.(ts|md)$/.test(name))) {
			const text = readFileSync(path.join(ROOT, file), 'utf8');
			for (const match of text.matchAll(/service\s+(?:\*\s+)?rules\s+§(\d+(?:\.\d+)?)/g)) cited.set(match[1], file);
		}
		expect(cited.size).toBeGreaterThan(10);
		const unknown = [...cited].filter(([section]) => !sections.has(section));
		expect(unknown).toEqual([]);
	});
});
