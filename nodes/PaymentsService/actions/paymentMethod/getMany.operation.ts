import { countryListOperation } from '../common/getManyByCountry';

/**
 * Payment Method → Get Many: `GET /v3/payment_methods?country=` with the read-only key (service
 * rules §9). One item per method, as the service returns it: `{country, code, name, type, status,
 * logo, daily_average, monthly_average}`; `code` is what Deposit → Create sends as `payment_method`.
 */
export const { properties, execute } = countryListOperation({
	path: '/v3/payment_methods',
	noun: 'payment methods',
});
