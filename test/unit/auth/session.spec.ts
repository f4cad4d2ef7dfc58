import { extractSessionToken, parseMerchantId } from '../../../nodes/PaymentsService/auth/session';

describe('extractSessionToken', () => {
	test('reads BEARER_TOKEN from one Set-Cookie string', () => {
		expect(extractSessionToken('BEARER_TOKEN=abc.def-123; Path=/; HttpOnly; Secure')).toBe(
			'abc.def-123',
		);
	});

	test('reads BEARER_TOKEN from a string holding several cookies', () => {
		expect(
			extractSessionToken('JSESSIONID=xyz; Path=/, BEARER_TOKEN=tok42; Path=/; HttpOnly'),
		).toBe('tok42');
		expect(extractSessionToken('other=1; BEARER_TOKEN=tok43')).toBe('tok43');
	});

	test('reads BEARER_TOKEN from an array of Set-Cookie values', () => {
		expect(
			extractSessionToken([
				'JSESSIONID=xyz; Path=/',
				'BEARER_TOKEN=eyJhbGciOi.J9==; Path=/; HttpOnly',
				'lang=en',
			]),
		).toBe('eyJhbGciOi.J9==');
	});

	test('a URL-encoded token is decoded', () => {
		expect(extractSessionToken('BEARER_TOKEN=a%2Bb%3D; Path=/')).toBe('a+b=');
	});

	test('a cookie whose name only ends with BEARER_TOKEN is not the session token', () => {
		expect(extractSessionToken('OLD_BEARER_TOKEN=nope; Path=/')).toBeUndefined();
	});

	test('missing header, missing cookie or an empty value give undefined', () => {
		expect(extractSessionToken(undefined)).toBeUndefined();
		expect(extractSessionToken([])).toBeUndefined();
		expect(extractSessionToken('JSESSIONID=xyz; Path=/')).toBeUndefined();
		expect(extractSessionToken(['a=1', 'b=2'])).toBeUndefined();
		expect(extractSessionToken('BEARER_TOKEN=; Path=/')).toBeUndefined();
	});
});

describe('parseMerchantId', () => {
	test('empty or missing means the default merchant (undefined)', () => {
		expect(parseMerchantId('')).toBeUndefined();
		expect(parseMerchantId('   ')).toBeUndefined();
		expect(parseMerchantId(undefined)).toBeUndefined();
		expect(parseMerchantId(null)).toBeUndefined();
	});

	test('digits give the merchant number', () => {
		expect(parseMerchantId('1002')).toBe(1002);
		expect(parseMerchantId(' 1002 ')).toBe(1002);
		expect(parseMerchantId(77)).toBe(77);
	});

	test.each(['abc', '-1', '0', '12.5', '1e3', '10 02'])(
		'%p is refused with an error naming the value',
		(value) => {
			expect(() => parseMerchantId(value)).toThrow(value.trim());
		},
	);
});
