/**
 * Fixed demo credentials and user accounts of the sandbox (independent of the seed).
 */
import type { DemoCredentials } from './types';

/** The demo credential values (also printed by cli.ts). Never mutate: use {@link demoCredentials}. */
const DEMO: DemoCredentials = {
	session: {
		accessKey: 'reports@acme-store.example',
		secretKey: 'AcmeSandbox#2024',
		merchantIds: [1001, 1002],
		defaultMerchantId: 1001,
	},
	otherSession: {
		accessKey: 'reports@globex.example',
		secretKey: 'GlobexSandbox#2024',
		merchantIds: [2001],
	},
	refusedSession: {
		accessKey: 'traveller@acme-store.example',
		secretKey: 'TravellerSandbox#2024',
	},
	readOnlyKey: 'ro_sandbox_3f9c2a7d1e5b4c60',
	deposit: {
		apiKey: 'dep_acme_1001_x7Kq2',
		apiSignature: 'depsig_acme_1001_9fT3mZ8wLq4vR2nY',
		merchantId: 1001,
	},
	cashout: {
		login: 'co_acme_1001',
		pass: 'CoPass-1001-Sandbox',
		apiSignature: 'cosig_acme_1001_H4pW8sK2dN6xB1vQ',
		merchantId: 1001,
	},
};

/** A deep copy of the demo credentials. */
export function demoCredentials(): DemoCredentials {
	return structuredClone(DEMO);
}

/** A reporting/ticket API user. */
export interface UserAccount {
	idUser: number;
	accessKey: string;
	secretKey: string;
	merchantIds: readonly number[];
	defaultMerchantId: number;
	/** Login from a "disallowed location": always 403 code 83 (after the secret is checked). */
	refused: boolean;
}

/** The users known to the sandbox. */
export const USERS: readonly UserAccount[] = [
	{
		idUser: 501,
		accessKey: DEMO.session.accessKey,
		secretKey: DEMO.session.secretKey,
		merchantIds: DEMO.session.merchantIds,
		defaultMerchantId: DEMO.session.defaultMerchantId,
		refused: false,
	},
	{
		idUser: 502,
		accessKey: DEMO.otherSession.accessKey,
		secretKey: DEMO.otherSession.secretKey,
		merchantIds: DEMO.otherSession.merchantIds,
		defaultMerchantId: DEMO.otherSession.merchantIds[0],
		refused: false,
	},
	{
		idUser: 503,
		accessKey: DEMO.refusedSession.accessKey,
		secretKey: DEMO.refusedSession.secretKey,
		merchantIds: [1001],
		defaultMerchantId: 1001,
		refused: true,
	},
];

/** Deposit API accounts: X-Login -> signing secret and merchant. */
export const DEPOSIT_ACCOUNTS: ReadonlyArray<{
	apiKey: string;
	apiSignature: string;
	merchantId: number;
}> = [DEMO.deposit];

/** Cashout API accounts: login/pass -> signing secret and merchant. */
export const CASHOUT_ACCOUNTS: ReadonlyArray<{
	login: string;
	pass: string;
	apiSignature: string;
	merchantId: number;
}> = [DEMO.cashout];
