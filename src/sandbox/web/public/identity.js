// Who the page's user is: `?user=ID&name=NAME` wins; otherwise the id kept in localStorage, created on the
// first visit after asking for a display name.
'use strict';

(() => {
  const STORAGE_KEY = 'hearsay.sandbox.user';
  const $ = (id) => document.getElementById(id);

  function readIdentity() {
    const query = new URLSearchParams(location.search);
    const queryId = Number(query.get('user'));
    if (Number.isSafeInteger(queryId) && queryId > 0) return { id: queryId, name: query.get('name') || 'You', fromQuery: true };
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null');
      if (saved && Number.isSafeInteger(saved.id) && saved.id > 0 && typeof saved.name === 'string') return saved;
    } catch (error) {
      // A damaged entry is replaced below.
    }
    return null;
  }

  function saveIdentity(identity) {
    if (!identity.fromQuery) localStorage.setItem(STORAGE_KEY, JSON.stringify({ id: identity.id, name: identity.name }));
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

  window.hearsayIdentity = { readIdentity, saveIdentity, askName };
})();
