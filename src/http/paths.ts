/** Path prefix of the public data API (the contract's base URL). */
export const API_PREFIX = '/api/v1/infrastructure';
/** Path prefix of web authentication and the account area. */
export const ACCOUNT_PREFIX = '/api/v1';
