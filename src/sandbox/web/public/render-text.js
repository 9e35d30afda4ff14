// Renders a message's text with its entities as the real client does: bold, italic, underline,
// strikethrough, spoilers (hidden until pressed), code, pre blocks, links, block quotes, and /commands
// and @mentions that act when pressed. Built from DOM nodes and textContent only, never from HTML.
'use strict';

(() => {
  const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
  const WRAPPERS = { bold: 'strong', italic: 'em', underline: 'u', strikethrough: 's', code: 'code', blockquote: 'blockquote' };

  function safeHref(raw) {
    try {
      const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `http://${raw}`);
      return SAFE_SCHEMES.has(url.protocol) ? url.href : null;
    } catch (error) {
      return null;
    }
  }

  function link(href) {
    const anchor = document.createElement('a');
    anchor.href = href;
    anchor.target = '_blank';
    anchor.rel = 'noopener noreferrer nofollow';
    return anchor;
  }

  function actionButton(className, onPress) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = className;
    button.addEventListener('click', onPress);
    return button;
  }

  /** Copies the element's text (the clipboard where the page may write it, else the text is selected to copy by hand). */
  async function copyText(element, button) {
    try {
      await navigator.clipboard.writeText(element.textContent);
      button.textContent = 'Copied';
    } catch (error) {
      const range = document.createRange();
      range.selectNodeContents(element);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = 'Selected';
    }
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 2000);
  }

  function spoiler() {
    const element = document.createElement('span');
    element.className = 'spoiler';
    element.tabIndex = 0;
    element.setAttribute('role', 'button');
    element.setAttribute('aria-label', 'spoiler, press to reveal');
    const reveal = () => {
      element.classList.add('revealed');
      element.removeAttribute('role');
      element.removeAttribute('aria-label');
      element.removeAttribute('tabindex');
    };
    element.addEventListener('click', reveal);
    element.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        reveal();
      }
    });
    return element;
  }

  /** The element an entity becomes; its text goes inside `inner` (the same element unless noted). */
  function elementFor(entity, text, actions) {
    const value = text.slice(entity.offset, entity.offset + entity.length);
    const tag = Object.hasOwn(WRAPPERS, entity.type) ? WRAPPERS[entity.type] : undefined;
    if (tag) {
      const element = document.createElement(tag);
      return { outer: element, inner: element };
    }
    switch (entity.type) {
      case 'expandable_blockquote': {
        const element = document.createElement('blockquote');
        element.className = 'expandable';
        return { outer: element, inner: element };
      }
      case 'pre': {
        // A block with a Copy button, as the real client offers: a command or a token is taken whole.
        const block = document.createElement('div');
        block.className = 'pre-block';
        const pre = document.createElement('pre');
        const code = document.createElement('code');
        if (entity.language) code.dataset.language = entity.language;
        pre.append(code);
        const copy = actionButton('copy', () => copyText(code, copy));
        copy.textContent = 'Copy';
        copy.setAttribute('aria-label', 'copy this block');
        block.append(pre, copy);
        return { outer: block, inner: code };
      }
      case 'spoiler': {
        const element = spoiler();
        return { outer: element, inner: element };
      }
      case 'text_link':
      case 'url':
      case 'email':
      case 'phone_number': {
        const raw =
          entity.type === 'text_link' ? entity.url : entity.type === 'email' ? `mailto:${value}` : entity.type === 'phone_number' ? `tel:${value}` : value;
        const href = safeHref(raw || '');
        const element = href ? link(href) : document.createElement('span');
        if (href && entity.type === 'text_link') element.title = href;
        return { outer: element, inner: element };
      }
      case 'bot_command': {
        const element = actionButton('command', () => actions.command(value));
        return { outer: element, inner: element };
      }
      case 'mention': {
        const username = value.slice(1);
        const element = actions.isPeer(username) ? actionButton('mention', () => actions.openPeer(username)) : document.createElement('span');
        element.classList.add('mention');
        return { outer: element, inner: element };
      }
      default: {
        const element = document.createElement('span');
        element.className = entity.type.replace(/_/g, '-');
        return { outer: element, inner: element };
      }
    }
  }

  // Entities come sorted by offset, outer ones first; a child reaching past its parent is cut at the parent's end.
  function build(text, entities, start, end, parent, actions) {
    let position = start;
    let index = 0;
    while (index < entities.length) {
      const entity = entities[index];
      const entityEnd = Math.min(end, entity.offset + entity.length);
      let next = index + 1;
      while (next < entities.length && entities[next].offset < entityEnd) next += 1;
      if (entity.offset < position || entityEnd <= entity.offset) {
        index = next;
        continue;
      }
      if (entity.offset > position) parent.append(text.slice(position, entity.offset));
      const { outer, inner } = elementFor(entity, text, actions);
      build(text, entities.slice(index + 1, next), entity.offset, entityEnd, inner, actions);
      parent.append(outer);
      position = entityEnd;
      index = next;
    }
    if (position < end) parent.append(text.slice(position, end));
  }

  /**
   * The text with its entities as DOM nodes. `actions.command(text)` runs when a /command is pressed,
   * `actions.openPeer(username)` when a mention of a known chat is, `actions.isPeer(username)` tells which are.
   */
  function renderText(text, entities, actions) {
    const fragment = document.createDocumentFragment();
    const valid = (Array.isArray(entities) ? entities : [])
      .filter((e) => e && Number.isInteger(e.offset) && Number.isInteger(e.length) && e.offset >= 0 && e.length > 0 && e.offset < text.length)
      .slice()
      .sort((a, b) => a.offset - b.offset || b.length - a.length);
    build(text, valid, 0, text.length, fragment, actions);
    return fragment;
  }

  window.hearsayRenderText = renderText;
})();
