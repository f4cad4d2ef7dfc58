/**
 * Jest transform: TypeScript (and the few ES-module packages of n8n's Send Email node) to CommonJS
 * with esbuild, one file at a time. It replaces ts-jest, which loaded the TypeScript compiler in
 * every worker and transpiled each file with it: on a clean checkout (CI, an empty jest cache)
 * that was the largest fixed cost of a run. Type checking stays in `npm run lint:types`.
 *
 * The output follows tsconfig.json where it matters at run time: CommonJS with esModuleInterop's
 * default imports and dynamic imports as requires, target ES2021, class fields assigned in the constructor (tsc's
 * useDefineForClassFields=false for that target), source maps for stack traces.
 * Plain JavaScript so that jest can load it without a transform of its own.
 */
const { createHash } = require('crypto');
const { readFileSync } = require('fs');
const esbuild = require('esbuild');

const SELF = readFileSync(__filename, 'utf8');

/** @type {import('esbuild').TsconfigRaw} */
const TSCONFIG = {
	compilerOptions: {
		useDefineForClassFields: false,
		preserveValueImports: false,
		verbatimModuleSyntax: false,
		esModuleInterop: true,
	},
};

/**
 * Built-in globals that no test replaces (Date and the timers are faked, so they stay out). Jest
 * runs each test file in its own context (node's vm), where every read of a global name goes
 * through the context's global object, about fifty times slower than a variable: Math.imul in the
 * sandbox's random generator took 0.5 µs a call, and the sandbox spent most of its time there.
 * esbuild's `define` replaces each free use of these names (not a local of the same name) with a
 * property of one object that the file reads once, when it is loaded; the values are the same.
 */
const STEADY_GLOBALS = [
	'Array',
	'ArrayBuffer',
	'BigInt',
	'Boolean',
	'DataView',
	'Error',
	'Intl',
	'JSON',
	'Map',
	'Math',
	'Number',
	'Object',
	'Promise',
	'RangeError',
	'Reflect',
	'RegExp',
	'Set',
	'String',
	'Symbol',
	'TypeError',
	'Uint8Array',
	'WeakMap',
	'WeakSet',
	'decodeURIComponent',
	'encodeURIComponent',
	'isFinite',
	'isNaN',
	'parseFloat',
	'parseInt',
	'structuredClone',
];
const HOLDER = '__steadyGlobals';
const DEFINE = Object.fromEntries(STEADY_GLOBALS.map((name) => [name, `${HOLDER}.${name}`]));
// On the first line, after a "use strict" if there is one, so that no line of the source map moves.
const DECLARATION = `var ${HOLDER} = { ${STEADY_GLOBALS.join(', ')} };`;
const USE_STRICT = '"use strict";';

module.exports = {
	/** The key of jest's cache: this file, esbuild's version, the file's path and text. */
	getCacheKey(sourceText, sourcePath) {
		return createHash('sha256')
			.update(SELF)
			.update('\0')
			.update(esbuild.version)
			.update('\0')
			.update(sourcePath)
			.update('\0')
			.update(sourceText)
			.digest('hex');
	},

	/** `{ code, map }` of one file; throws esbuild's error (with file and line) on a syntax error. */
	process(sourceText, sourcePath) {
		const result = esbuild.transformSync(sourceText, {
			loader: /\.tsx?$/.test(sourcePath) ? 'ts' : 'js',
			format: 'cjs',
			target: 'es2021',
			platform: 'node',
			sourcemap: 'external',
			sourcefile: sourcePath,
			tsconfigRaw: TSCONFIG,
			// `await import('x')` becomes a require, as tsc writes it for CommonJS (jest's module
			// registry serves requires; a real dynamic import needs --experimental-vm-modules).
			supported: { 'dynamic-import': false },
			define: DEFINE,
		});
		const code = result.code.startsWith(USE_STRICT)
			? USE_STRICT + DECLARATION + result.code.slice(USE_STRICT.length)
			: DECLARATION + result.code;
		return { code, map: result.map };
	},
};
