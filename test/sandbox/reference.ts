/**
 * Static reference data of the sandbox: countries, currencies, FX rates, payment methods (with the
 * ONE_SHOT requirements the service rules leave unpublished), banks, merchants, note types and rejection codes.
 */

/** Kind of payment method, returned as payment_info.type. */
export type PaymentKind = 'BANK_TRANSFER' | 'VOUCHER' | 'CREDIT_CARD' | 'WALLET';

/** A payment method of a country. */
export interface PaymentMethodInfo {
	/** 2-character code (service rules §3.3: paymentMethod filter max 2). */
	code: string;
	name: string;
	kind: PaymentKind;
	/** Default (and maximum) expiration in minutes (service rules §5.1: expiration not above the method's default). */
	defaultExpirationMinutes: number;
	/** Whether deposits of this method carry a voucher (flagForReview attaches it). */
	hasVoucher: boolean;
	/**
	 * Sandbox choice (service rules §5.1: not published): dotted body paths that must all be present (non-empty) for a
	 * ONE_SHOT answer; absent => the method is HOSTED only.
	 */
	oneShotRequired?: readonly string[];
}

/** A bank entry (service rules §9). */
export interface BankEntry {
	code: number;
	name: string;
}

/** A state of a country (GET /v3/states). */
export interface StateEntry {
	/** ISO 3166-2 subdivision code without the country prefix (at most 3 characters). */
	code: string;
	name: string;
}

/** `code name` pairs of `text`, separated by semicolons or line breaks, in order. */
function codedNames(text: string): Array<[string, string]> {
	return text
		.split(/[;\n]/)
		.map((entry) => entry.trim())
		.filter(Boolean)
		.map((entry) => {
			const space = entry.indexOf(' ');
			return [entry.slice(0, space), entry.slice(space + 1)];
		});
}

/** State entries of `text`: `code name` pairs (`AC Acre; AL Alagoas`). */
function entries(text: string): StateEntry[] {
	return codedNames(text).map(([code, name]) => ({ code, name }));
}

/** Bank entries of `text`: `code name` pairs (`1 Banco do Brasil; 33 …`), codes numbers. */
function banks(text: string): BankEntry[] {
	return codedNames(text).map(([code, name]) => ({ code: Number(code), name }));
}

/** A supported country. */
export interface CountryInfo {
	code: string;
	name: string;
	currency: string;
	/** Local currency units per USD (fixed in the sandbox). */
	fxRate: number;
	/** Valid payer.document_type values. */
	documentTypes: readonly string[];
	methods: readonly PaymentMethodInfo[];
	banks: readonly BankEntry[];
	/** State codes (ISO 3166-2 subdivision part) and names, served by GET /v3/states (service rules §9). */
	states: readonly StateEntry[];
	/** Digits of a generated document number. */
	documentDigits: number;
}

const PAYER_CORE = [
	'payer.document',
	'payer.document_type',
	'payer.email',
	'payer.first_name',
	'payer.last_name',
] as const;
const PAYER_NAMES = ['payer.email', 'payer.first_name', 'payer.last_name'] as const;
const ADDRESS = [
	'payer.address.street',
	'payer.address.city',
	'payer.address.state',
	'payer.address.zip_code',
] as const;

/**
 * A payment method: a VOUCHER method's deposits carry a voucher, no other's; `oneShotRequired` as
 * in {@link PaymentMethodInfo} (absent: HOSTED only).
 */
function method(
	code: string,
	name: string,
	kind: PaymentKind,
	defaultExpirationMinutes: number,
	oneShotRequired?: readonly string[],
): PaymentMethodInfo {
	const hasVoucher = kind === 'VOUCHER';
	return {
		code,
		name,
		kind,
		defaultExpirationMinutes,
		hasVoucher,
		...(oneShotRequired && { oneShotRequired }),
	};
}

/** Countries with generated data and deposit/cashout support. */
export const COUNTRIES: Readonly<Record<string, CountryInfo>> = {
	BR: {
		code: 'BR',
		name: 'Brazil',
		currency: 'BRL',
		fxRate: 5.43,
		documentTypes: ['CPF', 'CNPJ'],
		documentDigits: 11,
		states: entries(`
			AC Acre; AL Alagoas; AP Amapá; AM Amazonas; BA Bahia; CE Ceará; DF Distrito Federal
			ES Espírito Santo; GO Goiás; MA Maranhão; MT Mato Grosso; MS Mato Grosso do Sul
			MG Minas Gerais; PA Pará; PB Paraíba; PR Paraná; PE Pernambuco; PI Piauí
			RJ Rio de Janeiro; RN Rio Grande do Norte; RS Rio Grande do Sul; RO Rondônia; RR Roraima
			SC Santa Catarina; SP São Paulo; SE Sergipe; TO Tocantins
		`),
		methods: [
			method('PX', 'Pix', 'BANK_TRANSFER', 60, [...PAYER_CORE]),
			method('BL', 'Boleto', 'VOUCHER', 4320, [...PAYER_CORE, ...ADDRESS]),
			method('VI', 'Visa', 'CREDIT_CARD', 60),
		],
		banks: banks(`
			1 Banco do Brasil; 33 Banco Santander (Brasil); 77 Banco Inter
			104 Caixa Econômica Federal; 237 Banco Bradesco; 260 Nu Pagamentos; 341 Itaú Unibanco
		`),
	},
	MX: {
		code: 'MX',
		name: 'Mexico',
		currency: 'MXN',
		fxRate: 17.12,
		documentTypes: ['CURP', 'RFC', 'INE'],
		documentDigits: 18,
		states: entries(`
			AGU Aguascalientes; BCN Baja California; BCS Baja California Sur; CAM Campeche
			CHP Chiapas; CHH Chihuahua; CMX Ciudad de México; COA Coahuila; COL Colima; DUR Durango
			GUA Guanajuato; GRO Guerrero; HID Hidalgo; JAL Jalisco; MEX Estado de México
			MIC Michoacán; MOR Morelos; NAY Nayarit; NLE Nuevo León; OAX Oaxaca; PUE Puebla
			QUE Querétaro; ROO Quintana Roo; SLP San Luis Potosí; SIN Sinaloa; SON Sonora
			TAB Tabasco; TAM Tamaulipas; TLA Tlaxcala; VER Veracruz; YUC Yucatán; ZAC Zacatecas
		`),
		methods: [
			method('SE', 'SPEI', 'BANK_TRANSFER', 1440, [...PAYER_NAMES]),
			method('OX', 'OXXO', 'VOUCHER', 4320, [...PAYER_NAMES]),
		],
		banks: banks(
			'2 Banamex; 12 BBVA México; 14 Santander México; 21 HSBC México; 72 Banorte; 646 STP',
		),
	},
	CO: {
		code: 'CO',
		name: 'Colombia',
		currency: 'COP',
		fxRate: 3950.5,
		documentTypes: ['CC', 'CE', 'NIT', 'PP'],
		documentDigits: 10,
		states: entries(`
			AMA Amazonas; ANT Antioquia; ARA Arauca; ATL Atlántico; BOL Bolívar; BOY Boyacá
			CAL Caldas; CAQ Caquetá; CAS Casanare; CAU Cauca; CES Cesar; CHO Chocó; COR Córdoba
			CUN Cundinamarca; DC Bogotá D.C.; GUA Guainía; GUV Guaviare; HUI Huila; LAG La Guajira
			MAG Magdalena; MET Meta; NAR Nariño; NSA Norte de Santander; PUT Putumayo; QUI Quindío
			RIS Risaralda; SAP San Andrés y Providencia; SAN Santander; SUC Sucre; TOL Tolima
			VAC Valle del Cauca; VAU Vaupés; VID Vichada
		`),
		methods: [
			method('PC', 'PSE', 'BANK_TRANSFER', 60, [...PAYER_CORE, 'payer.phone', 'client_ip']),
			method('EF', 'Efecty', 'VOUCHER', 2880),
		],
		banks: banks(
			'1001 Banco de Bogotá; 1007 Bancolombia; 1013 BBVA Colombia; 1051 Davivienda; 1507 Nequi',
		),
	},
	CL: {
		code: 'CL',
		name: 'Chile',
		currency: 'CLP',
		fxRate: 940.2,
		documentTypes: ['RUT'],
		documentDigits: 9,
		states: entries(`
			AI Aysén; AN Antofagasta; AP Arica y Parinacota; AR Araucanía; AT Atacama; BI Biobío
			CO Coquimbo; LI Libertador General Bernardo O'Higgins; LL Los Lagos; LR Los Ríos
			MA Magallanes; ML Maule; NB Ñuble; RM Región Metropolitana de Santiago; TA Tarapacá
			VS Valparaíso
		`),
		methods: [
			method('WP', 'Webpay', 'CREDIT_CARD', 60),
			method('KH', 'Khipu', 'BANK_TRANSFER', 120),
		],
		banks: banks(
			'1 Banco de Chile; 12 BancoEstado; 16 Banco BCI; 37 Banco Santander Chile; 39 Itaú Chile',
		),
	},
	PE: {
		code: 'PE',
		name: 'Peru',
		currency: 'PEN',
		fxRate: 3.74,
		documentTypes: ['DNI', 'CE', 'RUC'],
		documentDigits: 8,
		states: entries(`
			AMA Amazonas; ANC Áncash; APU Apurímac; ARE Arequipa; AYA Ayacucho; CAJ Cajamarca
			CAL Callao; CUS Cusco; HUC Huánuco; HUV Huancavelica; ICA Ica; JUN Junín
			LAL La Libertad; LAM Lambayeque; LIM Lima; LMA Municipalidad Metropolitana de Lima
			LOR Loreto; MDD Madre de Dios; MOQ Moquegua; PAS Pasco; PIU Piura; PUN Puno
			SAM San Martín; TAC Tacna; TUM Tumbes; UCA Ucayali
		`),
		methods: [
			method('BC', 'BCP', 'BANK_TRANSFER', 1440),
			method('PF', 'PagoEfectivo', 'VOUCHER', 2880),
		],
		banks: banks('2 Banco de Crédito del Perú; 3 Interbank; 9 Scotiabank Perú; 11 BBVA Perú'),
	},
	AR: {
		code: 'AR',
		name: 'Argentina',
		currency: 'ARS',
		fxRate: 1015.3,
		documentTypes: ['DNI', 'CUIT', 'CUIL'],
		documentDigits: 8,
		states: entries(`
			A Salta; B Buenos Aires; C Ciudad Autónoma de Buenos Aires; D San Luis; E Entre Ríos
			F La Rioja; G Santiago del Estero; H Chaco; J San Juan; K Catamarca; L La Pampa
			M Mendoza; N Misiones; P Formosa; Q Neuquén; R Río Negro; S Santa Fe; T Tucumán
			U Chubut; V Tierra del Fuego; W Corrientes; X Córdoba; Y Jujuy; Z Santa Cruz
		`),
		methods: [
			method('RP', 'Rapipago', 'VOUCHER', 4320),
			method('MP', 'Mercado Pago', 'WALLET', 60),
		],
		banks: banks(`
			7 Banco de Galicia; 11 Banco de la Nación Argentina; 17 BBVA Argentina
			72 Banco Santander Argentina; 285 Banco Macro
		`),
	},
};

/** Codes of the supported countries, in generation order. */
export const COUNTRY_CODES: readonly string[] = Object.keys(COUNTRIES);

/**
 * Sandbox choice: ISO codes the reporting `country` filter accepts (supported ones plus other real
 * codes, which simply match nothing). Anything else -> 400 code 19.
 */
export const KNOWN_COUNTRY_CODES: ReadonlySet<string> = new Set([
	...COUNTRY_CODES,
	...[
		'US',
		'CA',
		'UY',
		'PY',
		'BO',
		'EC',
		'VE',
		'CR',
		'PA',
		'GT',
		'SV',
		'HN',
		'NI',
		'DO',
		'GB',
		'ES',
		'PT',
		'FR',
		'DE',
		'IT',
	],
	...[
		'IN',
		'ID',
		'JP',
		'TH',
		'VN',
		'MY',
		'PH',
		'CN',
		'KR',
		'TR',
		'NG',
		'KE',
		'ZA',
		'GH',
		'EG',
		'MA',
		'AU',
		'NZ',
	],
]);

/** Finds a country's payment method by code. */
export function findMethod(country: string, code: string): PaymentMethodInfo | undefined {
	return COUNTRIES[country]?.methods.find((m) => m.code === code);
}

/** A merchant account (MID). */
export interface MerchantInfo {
	id: number;
	name: string;
	/** 'full' = default volumes, 'small' = a third, 'none' = no generated data. */
	volume: 'full' | 'small' | 'none';
}

/** Merchants of the sandbox. */
export const MERCHANTS: readonly MerchantInfo[] = [
	{ id: 1001, name: 'Acme Store', volume: 'full' },
	{ id: 1002, name: 'Acme Travel', volume: 'none' },
	{ id: 2001, name: 'Globex', volume: 'small' },
];

/** Looks a merchant up; throws for an unknown MID. */
export function merchantById(id: number): MerchantInfo {
	const merchant = MERCHANTS.find((m) => m.id === id);
	if (!merchant) throw new Error(`unknown merchant ${id}`);
	return merchant;
}

/** Service rules §3.3: notes `type` values; category derived: *_CREDIT_NOTE => CREDIT, else DEBIT. */
export const NOTE_TYPES: readonly string[] = [
	'GENERIC_CREDIT_NOTE',
	'SERVICE_FEE_CREDIT_NOTE',
	'CHARGEBACK_COVERED_CREDIT_NOTE',
	'GENERIC_DEBIT_NOTE',
	'REFUND',
	'REFUND_PROCESSING_FEE',
	'CASHOUT_TRANSACTION',
	'CASHOUT_PROCESSING_FEE',
	'CHARGEBACK',
	'CHARGEBACK_PROCESSING_FEE',
	'SERVICE_FEE_DEBIT_NOTE',
];

/** Category (CREDIT/DEBIT) of a note type. */
export function noteCategory(type: string): 'CREDIT' | 'DEBIT' {
	return type.endsWith('_CREDIT_NOTE') ? 'CREDIT' : 'DEBIT';
}

/** Service rules §3.3: deposit filter statuses. CREATED may occur in records but is not a filter value. */
export const DEPOSIT_FILTER_STATUSES: readonly string[] = [
	'PENDING',
	'APPROVED',
	'COMPLETED',
	'CANCELLED',
	'DECLINED',
];
/** Service rules §6.1: cashout statuses. */
export const CASHOUT_STATUSES: readonly string[] = [
	'ON_HOLD',
	'PENDING',
	'DELIVERED',
	'COMPLETED',
	'REJECTED',
	'CANCELLED',
	'DECLINED',
];
/** Service rules §3.3: refund filter statuses. */
export const REFUND_FILTER_STATUSES: readonly string[] = [
	'PENDING',
	'COMPLETED',
	'CANCELLED',
	'WAITING_DETAILS',
];
/** Service rules §3.3: chargeback filter statuses. */
export const CHARGEBACK_STATUSES: readonly string[] = [
	'PENDING',
	'COMPLETED',
	'CANCELLED',
	'FAILED',
];
/** Service rules §3.3: settlement filter statuses. */
export const SETTLEMENT_STATUSES: readonly string[] = [
	'PENDING',
	'COMPLETED',
	'CANCELLED',
	'FAILED',
];

/**
 * Service rules §6.1: cashout_status codes. DECLINED has no published code: sandbox choice 6 'Declined'.
 */
export const CASHOUT_STATUS_CODES: Readonly<Record<string, { code: number; description: string }>> =
	{
		PENDING: { code: 0, description: 'Pending' },
		COMPLETED: { code: 1, description: 'Completed' },
		CANCELLED: { code: 2, description: 'Canceled' },
		REJECTED: { code: 3, description: 'Rejected' },
		DELIVERED: { code: 4, description: 'Delivered' },
		ON_HOLD: { code: 5, description: 'On hold' },
		DECLINED: { code: 6, description: 'Declined' },
	};

/** Service rules §6.3: cashout rejection codes used by the generator (a subset of the published list). */
export const REJECTION_CODES: ReadonlyArray<{ code: number; reason: string }> = [
	{ code: 800, reason: 'ERROR_ACCOUNT_INCORRECT' },
	{ code: 801, reason: 'ERROR_ACCOUNT_CLOSED' },
	{ code: 803, reason: 'ERROR_BANK_INVALID' },
	{ code: 805, reason: 'ERROR_BENEFICIARY_DOCUMENT_ID_INVALID' },
	{ code: 807, reason: 'ERROR_REJECTED_BY_BANK' },
	{ code: 808, reason: 'ERROR_OTHER' },
	{ code: 809, reason: 'WITHDRAWAL_EXPIRED' },
	{ code: 811, reason: 'RISK_POLICY' },
	{ code: 813, reason: 'DOCUMENT_ACCOUNT_MISMATCH' },
	{ code: 814, reason: 'INVALID_PIX_KEY' },
];

/** Default rejection when advanceCashout(..., 'REJECTED') gets none: 807 ERROR_REJECTED_BY_BANK. */
export const DEFAULT_REJECTION = { code: 807, reason: 'ERROR_REJECTED_BY_BANK' } as const;

/** Ticket attachment document types (service rules §8). */
export const DOCUMENT_TYPES: readonly string[] = ['VOUCHER', 'ID_DOCUMENT', 'BANK_STATEMENT'];
