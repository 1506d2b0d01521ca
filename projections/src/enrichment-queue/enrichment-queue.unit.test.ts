// What an enrichment job asks for: the company domain an email tells (not a free-mail one), and a job
// id that is the same for the same source event every time.
import { describe, expect, it } from 'vitest';
import { enrichmentDomainOf, enrichmentJobIdOf, isFreeMailDomain } from './projection';

describe('the company domain of an email', () => {
  it.each([
    ['ada@analytical.example', 'analytical.example'],
    ['ada@mail.analytical.co.uk', 'mail.analytical.co.uk'],
    ['ada@gmail.com', null],
    ['ada@googlemail.com', null],
    ['ada@yahoo.co.uk', null],
    ['ada@yahoo.de', null],
    ['ada@hotmail.fr', null],
    ['ada@gmx.net', null],
    ['ada@web.de', null],
    ['ada@proton.me', null],
    ['ada@yandex.ru', null],
    ['ada@mail.ru', null],
    ['ada@icloud.com', null],
    [null, null],
  ] as const)('of %s is %s', (email, domain) => {
    expect(enrichmentDomainOf(email)).toBe(domain);
  });

  it('counts a company that merely starts like a free-mail family as a company', () => {
    expect(isFreeMailDomain('yahoo.example.com')).toBe(false);
    expect(isFreeMailDomain('gmailer.com')).toBe(false);
    expect(isFreeMailDomain('outlook.com')).toBe(true);
  });
});

describe('the job id of a source event', () => {
  it('is a version 5 uuid, the same for the same event and different for another', () => {
    const event = '0b7e5c9e-3f59-4d1e-9a53-6a0f5f2b8c11';
    expect(enrichmentJobIdOf(event)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(enrichmentJobIdOf(event)).toBe(enrichmentJobIdOf(event.toUpperCase()));
    expect(enrichmentJobIdOf(event)).not.toBe(enrichmentJobIdOf('0b7e5c9e-3f59-4d1e-9a53-6a0f5f2b8c12'));
  });
});
