// Who the page's user is: `?user=ID&name=NAME` (and `&lang=de`) win; otherwise the id, name and app language kept
// in localStorage, created on the first visit after asking for a display name. Also keeps the last chat opened,
// so a reload opens it again.
'use strict';

(() => {
  const STORAGE_KEY = 'hearsay.sandbox.user';
  const LAST_CHAT_KEY = 'hearsay.sandbox.last-chat';
  const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/;
  const $ = (id) => document.getElementById(id);

  const language = (value) => (typeof value === 'string' && LANGUAGE.test(value) ? value : '');

  function readIdentity() {
    const query = new URLSearchParams(location.search);
    const queryId = Number(query.get('user'));
    if (Number.isSafeInteger(queryId) && queryId > 0)
      return { id: queryId, name: query.get('name') || 'You', language: language(query.get('lang')), fromQuery: true };
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null');
      if (saved && Number.isSafeInteger(saved.id) && saved.id > 0 && typeof saved.name === 'string') return { ...saved, language: language(saved.language) };
    } catch (error) {
      // A damaged entry is replaced below.
    }
    return null;
  }

  function saveIdentity(identity) {
    if (!identity.fromQuery) localStorage.setItem(STORAGE_KEY, JSON.stringify({ id: identity.id, name: identity.name, language: identity.language || '' }));
  }

  /** The user as the client API takes it: with `language_code` when an app language is chosen (the bot's updates carry it). */
  function userObject(identity) {
    return { id: identity.id, first_name: identity.name, ...(identity.language ? { language_code: identity.language } : {}) };
  }

  function askName(initial) {
    const input = $('name-input');
    input.value = initial;
    $('name-dialog').showModal();
    input.select();
    return new Promise((resolve) => {
      $('name-form').addEventListener('submit', () => resolve(input.value.trim().slice(0, 64) || 'You'), { once: true });
    });
  }

  /** The chat opened last in this browser (for this user), to open again after a reload. */
  function lastChat(identity) {
    try {
      const saved = JSON.parse(localStorage.getItem(LAST_CHAT_KEY) || 'null');
      return saved && saved.user === identity.id && typeof saved.chat === 'string' ? saved.chat : null;
    } catch (error) {
      return null;
    }
  }

  function rememberChat(identity, chat) {
    localStorage.setItem(LAST_CHAT_KEY, JSON.stringify({ user: identity.id, chat }));
  }

  window.hearsayIdentity = { readIdentity, saveIdentity, userObject, askName, lastChat, rememberChat };
})();
