// Copies the icons n8n loads at run time into dist/ (referenced from the node and credential
// descriptions as file:../../icons/...). The codex files (nodes/**/*.node.json, which place the
// node in n8n's panel) are emitted by tsc, as tsconfig.json includes them, the way n8n's starter
// and `n8n-node build` do it.
const path = require('path');
const { task, src, dest } = require('gulp');

function copyIcons() {
	return src(path.resolve('icons', '**', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'icons')),
	);
}

task('build:icons', copyIcons);
