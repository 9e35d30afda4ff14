// `hearsay check` on media replies: files next to the rules found and read (size and content hash), and the
// service's refusals reported at their line:column before anything is sent: a missing file, a photo over
// 10 MB or a file over 50 MB, a caption over 1024 characters, an album of kinds the service does not mix, a
// caption where none can go, two media in one message; and rows of more than 12 buttons.
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRules, loadRules } from '../../src/rules/load.js';
import { png } from '../support/images.js';
import { withRuleDir } from './rule-files.js';

async function withMedia<T>(yaml: string, use: (dir: string) => Promise<T>): Promise<T> {
  return withRuleDir({ 'bot.yaml': yaml }, async (dir) => {
    await mkdir(join(dir, 'media'));
    await writeFile(join(dir, 'media', 'menu.jpg'), png(40, 30));
    await writeFile(join(dir, 'media', 'menu-de.jpg'), png(41, 30));
    await writeFile(join(dir, 'media', 'terms.pdf'), '%PDF-1.4 terms');
    await writeFile(join(dir, 'media', 'a.jpg'), png(2, 2));
    await writeFile(join(dir, 'media', 'b.jpg'), png(3, 3));
    return use(dir);
  });
}

async function problemsOf(yaml: string, prepare?: (dir: string) => Promise<void>): Promise<string[]> {
  return withMedia(yaml, async (dir) => {
    await prepare?.(dir);
    return (await checkRules(dir)).problems.map((p) => p.format('').replace(/^:/, '').replace(dir, '<dir>'));
  });
}

const ISSUE_EXAMPLE = `languages: { default: en, supported: [en, de] }
rules:
  - id: menu
    command: menu
    photo: media/menu.jpg
    caption: { en: "Today's menu", de: "Heute auf der Karte" }
  - id: terms
    command: terms
    document: media/terms.pdf
  - id: where
    keywords: [where are you, address]
    location: { latitude: 52.5200, longitude: 13.4050, title: "Pixel Print", address: "Torstr. 1" }
  - id: gallery
    command: gallery
    album: [media/a.jpg, media/b.jpg, https://example.com/c.jpg]
  - id: menu-de
    command: karte
    photo: { en: media/menu.jpg, de: media/menu-de.jpg }
`;

describe('check: media replies', () => {
  it("the issue's examples load, each file read with its size and content hash", async () => {
    await withMedia(ISSUE_EXAMPLE, async (dir) => {
      const outcome = await loadRules(dir);
      expect(outcome.problems).toEqual([]);
      const menu = outcome.ruleSet!.rules.find((rule) => rule.id === 'menu')!;
      expect(menu.media?.media).toMatchObject({
        kind: 'photo',
        source: { kind: 'file', path: join(dir, 'media', 'menu.jpg'), name: 'menu.jpg', size: png(40, 30).length },
      });
      expect((menu.media?.media as { source: { hash: string } }).source.hash).toMatch(/^[0-9a-f]{64}$/);
      const gallery = outcome.ruleSet!.rules.find((rule) => rule.id === 'gallery')!;
      expect(gallery.media?.media).toMatchObject({ kind: 'album', items: [{ kind: 'photo' }, { kind: 'photo' }, { kind: 'photo', source: { kind: 'url' } }] });
      expect(outcome.mediaPaths).toContain(join(dir, 'media', 'terms.pdf'));
    });
  });

  it('reports a missing file, a photo over 10 MB and a file over 50 MB where they are named', async () => {
    const yaml = `rules:
  - id: a
    command: a
    photo: media/nope.jpg
  - id: b
    command: b
    photo: media/huge.jpg
  - id: c
    command: c
    video: media/film.mp4
`;
    const problems = await problemsOf(yaml, async (dir) => {
      await writeFile(join(dir, 'media', 'huge.jpg'), png(2, 2));
      await truncate(join(dir, 'media', 'huge.jpg'), 11 * 1024 * 1024);
      await writeFile(join(dir, 'media', 'film.mp4'), 'x');
      await truncate(join(dir, 'media', 'film.mp4'), 51 * 1024 * 1024);
    });
    expect(problems).toEqual([
      `4:12: the photo of rule 'a': no such file: media/nope.jpg (looked for <dir>/media/nope.jpg; paths are relative to the rules directory)`,
      `7:12: the photo media/huge.jpg of rule 'b' is 11 MB; the service takes photos of at most 10 MB (send it as a document)`,
      `10:12: the video media/film.mp4 of rule 'c' is 51 MB; the service takes files of at most 50 MB`,
    ]);
  });

  it('reports a caption over 1024 characters, a caption where none can go, two media, and an album the service refuses', async () => {
    const yaml = `rules:
  - id: long
    command: long
    photo: media/menu.jpg
    caption: "${'x'.repeat(1025)}"
  - id: sticker
    command: sticker
    sticker: CAACAgIAAxkBAAIBY2abcdefghijklmnop
    caption: nice
  - id: both
    command: both
    photo: media/menu.jpg
    document: media/terms.pdf
  - id: mixed
    command: mixed
    album: [media/a.jpg, media/terms.pdf]
  - id: bare
    command: bare
    reply: hi
    caption: "under what?"
`;
    expect(await problemsOf(yaml)).toEqual([
      "5:14: the caption of rule 'long' is 1025 characters; the service takes at most 1024 under a file",
      "9:14: a sticker has no caption (the service shows none under it): remove caption from rule 'sticker', or send the text as reply",
      "13:15: rule 'both' has both photo and document: a message carries one of them (use messages: [...] to send several)",
      "16:12: the album of rule 'mixed' mixes photo, document: the service sends documents only in an album of their own kind",
      "20:14: the caption of rule 'bare' goes under a photo, document, video, audio, voice or animation: add one, or write the text as reply",
    ]);
  });

  it('a media source may be a template (a file_id a flow kept, a URL with a value); its placeholders are checked', async () => {
    const found = await problemsOf(`rules:
  - id: echo
    event: photo
    photo: "{{message.file_id}}"
    caption: "Is this the one?"
  - id: card
    command: card
    document: "https://shop.example/cards/{{user.id}}.pdf"
  - id: broken
    command: broken
    photo: "{{flow.picture}}"
`);
    expect(found).toEqual(["11:12: {{flow.picture}} is only available inside a flow (its steps' questions and done) (in the photo of rule 'broken')"]);
  });

  it('warns from 9 buttons in a row and refuses more than 12, which the service would drop', async () => {
    const row = (n: number) => `[${Array.from({ length: n }, (_, i) => `{ text: "${i}", data: "d${i}" }`).join(', ')}]`;
    const yaml = `rules:
  - id: wide
    command: wide
    reply: pick
    buttons: [${row(9)}, ${row(13)}]
`;
    expect(await problemsOf(yaml)).toEqual([
      "5:15: warning: row 1 of the buttons of rule 'wide' has 9 buttons: on a phone their labels are cut short; 3 or 4 to a row read better",
      "5:260: row 2 of the buttons of rule 'wide' has 13 buttons; the service shows at most 12 in a row and drops the rest",
    ]);
  });
});
