import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const context = await browser.newContext();
await context.addInitScript("localStorage.setItem('agentstep.console.name', 'ann')");
const page = await context.newPage();
await page.goto('http://127.0.0.1:3919/');
for (let i = 0; i < 4; i++) {
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForTimeout(300);
  const ms = await page.evaluate(() => new Promise((settle) => {
    const start = performance.now();
    const observer = new MutationObserver(() => {
      if (document.querySelector('.item.turn-end')) { observer.disconnect(); settle(performance.now() - start); }
    });
    observer.observe(document.body, { subtree: true, childList: true });
    location.hash = '#/sessions/s-b15f2d90';
  }));
  console.log('in page: 507 events shown in', Math.round(ms), 'ms');
}
await browser.close();
