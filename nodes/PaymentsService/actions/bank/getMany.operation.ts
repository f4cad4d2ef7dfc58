import { countryListOperation } from '../common/getManyByCountry';

/**
 * Bank → Get Many: `GET /v3/banks?country=` with the read-only key, the bank codes accepted for
 * cashouts in a country (service rules §9). One item per bank, `{code, name}`; `code` is what
 * Cashout → Create sends as `bank_code`.
 */
export const { properties, execute } = countryListOperation({ path: '/v3/banks', noun: 'banks' });
