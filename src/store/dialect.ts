/** The SQL dialect a store speaks; repositories and migrations branch on it where SQL differs. */
export type Dialect = 'sqlite' | 'postgres';
