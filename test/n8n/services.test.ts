import { numberPrinted, runCommand } from './processes';
import { postgresCommand } from './services';

// What psql printed when it ran as the postgres user in a checkout under /root (mode 700): a
// warning on stderr, then the count. The at-least-once step read it all as "the row count".
const CHDIR_WARNING = 'could not change directory to "/root/ci-clone": Permission denied\n0\n';

describe('a command whose output a real-n8n check reads as a number', () => {
	test.each([
		['0\n', 0],
		['1', 1],
		['  1024 \n', 1024],
	])('%j is the whole number %d', (output, expected) => {
		expect(numberPrinted('psql (merchant)', output)).toBe(expected);
	});

	test.each([
		[CHDIR_WARNING, /Permission denied/],
		['', /\(nothing\)/],
		['ERROR:  relation "handled_notifications" does not exist', /does not exist/],
		['1.5', /1\.5/],
		['-1', /-1/],
		['2\n3', /2\n3/],
	])('%j fails naming the command and quoting what it printed', (output, quoted) => {
		expect(() => numberPrinted('psql (merchant)', output)).toThrow(
			/^psql \(merchant\) printed, where a whole number was expected:\n/,
		);
		expect(() => numberPrinted('psql (merchant)', output)).toThrow(quoted);
	});

	test('a command that exits non-zero fails with its own message and exit code', async () => {
		await expect(
			runCommand('sh', ['-c', 'echo "relation does not exist" >&2; exit 3'], { what: 'psql (x)' }),
		).rejects.toThrow(/^psql \(x\) failed \(exit 3\):\nrelation does not exist$/);
	});
});

describe('PostgreSQL commands of the real-n8n runs', () => {
	test('as root they run as the postgres user, in / (a folder that user can enter)', () => {
		expect(
			postgresCommand('/usr/lib/postgresql/15/bin/psql', ['-At', '-c', 'SELECT 1'], 0),
		).toEqual({
			command: 'runuser',
			args: ['-u', 'postgres', '--', '/usr/lib/postgresql/15/bin/psql', '-At', '-c', 'SELECT 1'],
			cwd: '/',
		});
	});

	test('as another user they run as that user, in / as well', async () => {
		const { command, args, cwd } = postgresCommand('pwd', [], 1000);
		expect([command, args, cwd]).toEqual(['pwd', [], '/']);
		expect((await runCommand(command, args, { cwd, what: 'pwd' })).trim()).toBe('/');
	});
});
