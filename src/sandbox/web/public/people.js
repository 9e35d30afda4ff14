// Who takes part, beside the page's user: the app language the user writes with (every message then carries it
// as `language_code`, so a bot's per-language texts follow it), and new groups with bots and other people in them
// (created through POST /client/groups, a bot optionally as an administrator, as a supergroup, joined only with an
// administrator's approval; each other person gets a link that opens the page as them). Built from DOM nodes and
// textContent only; app.js owns the state.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  /** The language select shows the user's app language; a change is kept and sent with every message from then on. */
  function setupLanguage(user, onChange) {
    const select = $('language');
    if (user.language && ![...select.options].some((option) => option.value === user.language)) select.add(new Option(user.language, user.language));
    select.value = user.language || '';
    select.addEventListener('change', () => {
      user.language = select.value;
      onChange();
    });
  }

  /** Names from the text box: one per line or comma-separated, trimmed, at most 64 characters each. */
  function namesIn(text) {
    return text
      .split(/[\n,]/)
      .map((name) => name.trim().slice(0, 64))
      .filter((name) => name !== '');
  }

  /** A link that opens the page as `person` in a new tab (to write in the group `chatId`, when given, as them). */
  function actAsLink(person, chatId) {
    const link = document.createElement('a');
    const chat = chatId === undefined ? '' : `&chat=${encodeURIComponent(String(chatId))}`;
    link.href = `/?user=${encodeURIComponent(String(person.id))}&name=${encodeURIComponent(person.first_name)}${chat}`;
    link.target = '_blank';
    link.rel = 'noopener';
    link.textContent = `write as ${person.first_name}`;
    return link;
  }

  /**
   * The "New group" dialog: a title, the bots to add (`bots()` lists them) and other people by name. Resolves
   * `onCreated(chatId, others)` once the sandbox made the group with the page's user, those bots and people in it.
   */
  function setupNewGroup({ userObject, bots, onCreated }) {
    const dialog = $('group-dialog');
    const fieldset = $('group-bots');
    $('new-group').addEventListener('click', () => {
      const boxes = bots().map((bot) => {
        const row = document.createElement('div');
        row.className = 'group-bot';
        const label = document.createElement('label');
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.value = bot.username;
        box.checked = bot.mine;
        label.append(box, ` ${bot.name} (@${bot.username})`);
        // An administrator bot may delete, restrict and ban, and receives every message of the group.
        const adminLabel = document.createElement('label');
        const admin = document.createElement('input');
        admin.type = 'checkbox';
        admin.dataset.admin = bot.username;
        adminLabel.append(admin, ' administrator');
        row.append(label, adminLabel);
        return row;
      });
      const legend = document.createElement('legend');
      legend.textContent = boxes.length > 0 ? 'Bots in it' : 'Bots in it (none yet: create one with BotMaker)';
      fieldset.replaceChildren(legend, ...boxes);
      $('group-error').textContent = '';
      dialog.showModal();
      $('group-name').focus();
    });
    $('group-cancel').addEventListener('click', () => dialog.close());
    $('group-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const title = $('group-name').value.trim();
      const chosen = [...fieldset.querySelectorAll('input:checked:not([data-admin])')].map((box) => box.value);
      const admins = [...fieldset.querySelectorAll('input[data-admin]:checked')].map((box) => box.dataset.admin).filter((bot) => chosen.includes(bot));
      const options = {
        type: $('group-super').checked ? 'supergroup' : 'group',
        ...(admins.length > 0 ? { admins: admins.map((bot) => ({ bot })) } : {}),
        ...($('group-approval').checked ? { join_by_request: true } : {}),
      };
      // Other people are new sandbox users, each with an id of their own.
      const others = namesIn($('group-people').value).map((name) => ({ id: 100000 + Math.floor(Math.random() * 2000000000), first_name: name }));
      const response = await fetch('/client/groups', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title, members: [userObject(), ...others], bots: chosen, ...options }),
      });
      const envelope = await response.json();
      if (!envelope.ok) {
        $('group-error').textContent = `Not created: ${envelope.description || `HTTP ${response.status}`}`;
        return;
      }
      dialog.close();
      $('group-name').value = '';
      $('group-people').value = '';
      onCreated(envelope.result.chat_id, others);
    });
  }

  /** The notice in a new group's chat: who else is in it, each with a link to write as them. */
  function othersNotice(others) {
    const notice = document.createElement('li');
    notice.className = 'empty';
    notice.append(others.length > 0 ? 'Also in this group: ' : 'No messages yet.');
    others.forEach((person, i) => {
      if (i > 0) notice.append(', ');
      notice.append(`${person.first_name} (`, actAsLink(person), ')');
    });
    return notice;
  }

  /**
   * What a group shows someone outside it: join it to read and post, or write as one of its members in a new tab
   * (in a staff group, acting as staff: the demo's "Support team" has Sam).
   */
  function outsiderNotice(peer, selfId) {
    const notice = document.createElement('li');
    notice.className = 'empty';
    notice.append('You are not a member of this group. Join it to read and post');
    const people = (peer.people || []).filter((person) => person.id !== selfId);
    if (people.length === 0) notice.append('.');
    else notice.append(', or ');
    people.forEach((person, i) => {
      if (i > 0) notice.append(i === people.length - 1 ? ' or ' : ', ');
      notice.append(actAsLink(person, peer.chatId));
    });
    if (people.length > 0) notice.append(' (in a new tab).');
    return notice;
  }

  window.hearsayPeople = { setupLanguage, setupNewGroup, othersNotice, outsiderNotice };
})();
