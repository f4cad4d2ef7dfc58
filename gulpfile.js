// Copies the non-TypeScript assets n8n loads at run time into dist/:
// the icons (referenced from the node and credential descriptions as file:../../icons/...)
// and the codex files (nodes/**/*.node.json) that place the node in n8n's panel.
const path = require('path');
const { task, src, dest, parallel } = require('gulp');

function copyIcons() {
	return src(path.resolve('icons', '**', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'icons')),
	);
}

function copyCodex() {
	return src(path.resolve('nodes', '**', '*.node.json')).pipe(dest(path.resolve('dist', 'nodes')));
}

task('build:icons', copyIcons);
task('build:codex', copyCodex);
task('build:assets', parallel(copyIcons, copyCodex));
