import { DEMOS, runDemo, type DemoContext } from '../demo/demos';
import { startSmtpSink } from '../demo/smtp-sink';
import { smtpSinkData, startFixture, type Fixture } from '../harness/fixtures';

// The example workflows of test/workflows (the ones `npm run demo` shows), run as files, exactly as
// a user would import them into n8n, with each demo's own checks.
describe('the example workflows', () => {
	let fx: Fixture;
	let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
	let context: DemoContext;

	beforeAll(async () => {
		fx = await startFixture();
		smtp = await startSmtpSink();
		fx.engine.addCredential({
			id: 'cred-smtp',
			name: 'SMTP',
			type: 'smtp',
			data: smtpSinkData(smtp.port),
		});
		context = { engine: fx.engine, sandbox: fx.sandbox, mails: smtp.mails };
	});
	afterAll(async () => {
		await smtp.close();
		await fx.close();
	});

	test.each(DEMOS.map((demo) => [demo.file, demo] as const))(
		'%s does what it shows',
		async (_file, demo) => {
			const { lines } = await runDemo(demo, context);
			expect(lines.length).toBeGreaterThan(0);
		},
	);

	test('all of them together used one session login', () => {
		expect(fx.sandbox.log.find('POST', '/v1/auth/login')).toHaveLength(1);
	});
});
