#!/usr/bin/env node
// Runs the built CLI; `npm run build` produces ../dist.
import '../dist/bin.js';
