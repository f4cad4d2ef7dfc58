import path from 'path';

/**
 * Where this package is and what n8n calls it. Apart from the engine harness (engine.ts), so that
 * the real-n8n tools and their tests load no n8n module for two constants.
 */

/** The root of this package (where package.json is). */
export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
/** The name n8n prefixes this package's node types with. */
export const PACKAGE_NAME = 'n8n-nodes-payments-service';
