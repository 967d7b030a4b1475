#!/usr/bin/env node
// The browser end-to-end test drives Debian's Chromium. This installs it when it is missing
// (as root, through apt-get), so `npm test` works on a fresh machine as written.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CKG_CHROMIUM ?? '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const apt = ['/usr/bin/apt-get', '/bin/apt-get'].find((p) => existsSync(p));
if (!apt) {
  console.error(`ensure-chromium: ${CHROMIUM} is missing and apt-get is not available; install Chromium and set CKG_CHROMIUM`);
  process.exit(1);
}
const sudo = isRoot ? [] : ['sudo'];
const run = (args) => {
  const [cmd, ...rest] = [...sudo, ...args];
  execFileSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
};
console.log('ensure-chromium: installing Debian chromium (needed by the browser end-to-end test)');
run([apt, 'update', '-qq']);
run([apt, 'install', '-y', '-qq', '--no-install-recommends', 'chromium']);
if (!existsSync(CHROMIUM)) {
  console.error(`ensure-chromium: ${CHROMIUM} still missing after apt-get install chromium`);
  process.exit(1);
}
