// Buttons and what a chat shows besides messages: a message's inline keyboard (a pressed button spins until
// the bot answers), the reply keyboard above the input, the command menu, "typing…", and the bot's answer
// to a press as a toast or an alert. Built from DOM nodes and textContent only; app.js owns the state.
'use strict';

(() => {
  const LINK_SCHEMES = new Set(['http:', 'https:', 'tg:']);
  const ACTION_LABELS = {
    typing: 'typing…',
    upload_photo: 'sending a photo…',
    upload_document: 'sending a file…',
    choose_sticker: 'choosing a sticker…',
    find_location: 'finding a location…',
  };
  const $ = (id) => document.getElementById(id);

  function safeLink(raw) {
    try {
      const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `http://${raw}`);
      return LINK_SCHEMES.has(url.protocol) ? url.href : null;
    } catch (error) {
      return null;
    }
  }

  /** One inline button: a link for `url`, a pressable button for `callback_data`, an inert one otherwise. */
  function inlineButton(message, button, onPress) {
    const href = button.url ? safeLink(button.url) : null;
    if (href) {
      const anchor = document.createElement('a');
      anchor.className = 'inline-button';
      anchor.href = href;
      anchor.target = '_blank';
      anchor.rel = 'noopener noreferrer nofollow';
      anchor.textContent = `${button.text} ↗`;
      return anchor;
    }
    const element = document.createElement('button');
    element.type = 'button';
    element.className = 'inline-button';
    element.textContent = button.text;
    if (typeof button.callback_data !== 'string') {
      element.disabled = true;
      element.title = 'This kind of button cannot be pressed in the sandbox';
      return element;
    }
    const answer = message.callback_answer;
    if (answer && answer.status === 'pending' && answer.data === button.callback_data) {
      element.classList.add('pending');
      element.setAttribute('aria-busy', 'true');
    }
    element.addEventListener('click', () => {
      element.classList.add('pending');
      element.setAttribute('aria-busy', 'true');
      onPress(message, button.callback_data);
    });
    return element;
  }

  /** The inline keyboard under a message, or null when it has none. */
  function inlineKeyboard(message, onPress) {
    const rows = message.reply_markup && message.reply_markup.inline_keyboard;
    if (!Array.isArray(rows) || rows.length === 0) return null;
    const keyboard = document.createElement('div');
    keyboard.className = 'inline-keyboard';
    keyboard.setAttribute('role', 'group');
    keyboard.setAttribute('aria-label', 'Buttons');
    for (const row of rows) {
      const line = document.createElement('div');
      line.className = 'inline-row';
      line.append(...row.map((button) => inlineButton(message, button, onPress)));
      keyboard.append(line);
    }
    return keyboard;
  }

  /** The reply keyboard above the input: each label, pressed, is sent as the user's message. */
  function renderReplyKeyboard(markup, onPress) {
    const container = $('reply-keyboard');
    const rows = markup && Array.isArray(markup.keyboard) ? markup.keyboard : [];
    container.hidden = rows.length === 0;
    container.replaceChildren(
      ...rows.map((row) => {
        const line = document.createElement('div');
        line.className = 'reply-row';
        for (const button of row) {
          const label = typeof button === 'string' ? button : button.text;
          const element = document.createElement('button');
          element.type = 'button';
          element.className = 'reply-button';
          element.textContent = label;
          element.addEventListener('click', () => onPress(label));
          line.append(element);
        }
        return line;
      }),
    );
  }

  /** The "/" button and its menu of the bot's commands; a chosen command is sent. */
  function renderCommandMenu(commands, onCommand) {
    const toggle = $('commands-button');
    const menu = $('command-menu');
    toggle.hidden = commands.length === 0;
    if (commands.length === 0) closeMenu();
    menu.replaceChildren(
      ...commands.map((command) => {
        const item = document.createElement('li');
        const element = document.createElement('button');
        element.type = 'button';
        element.className = 'command-item';
        const name = document.createElement('span');
        name.className = 'command-name';
        name.textContent = `/${command.command}`;
        const description = document.createElement('span');
        description.className = 'command-description';
        description.textContent = command.description;
        element.append(name, description);
        element.addEventListener('click', () => {
          closeMenu();
          onCommand(`/${command.command}`);
        });
        item.append(element);
        return item;
      }),
    );
  }

  function closeMenu() {
    $('command-menu').hidden = true;
    $('commands-button').setAttribute('aria-expanded', 'false');
  }

  function toggleMenu() {
    const menu = $('command-menu');
    menu.hidden = !menu.hidden;
    $('commands-button').setAttribute('aria-expanded', String(!menu.hidden));
  }

  let typingTimer = null;
  /** "<name> is typing…" while the bot's chat action lasts. */
  function renderAction(name, action) {
    const element = $('typing');
    clearTimeout(typingTimer);
    if (!action || action.remaining_ms <= 0) {
      element.hidden = true;
      element.textContent = '';
      return;
    }
    element.textContent = `${name} is ${ACTION_LABELS[action.action] || 'busy…'}`;
    element.hidden = false;
    typingTimer = setTimeout(() => renderAction(name, null), action.remaining_ms);
  }

  let toastTimer = null;
  /** The bot's answer to a press: a toast that fades, or an alert to dismiss. */
  function showAnswer(answer) {
    if (!answer.text) return;
    if (answer.show_alert) {
      $('alert-text').textContent = answer.text;
      $('alert-dialog').showModal();
      return;
    }
    const toast = $('toast');
    toast.textContent = answer.text;
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      toast.hidden = true;
    }, 4000);
  }

  /** Typing, the reply keyboard and the command menu of the open chat; `send` sends a label or a command. */
  function renderChatState(name, state, send) {
    const shown = state || { action: null, reply_keyboard: null, commands: [] };
    renderAction(name, shown.action);
    renderReplyKeyboard(shown.reply_keyboard, send);
    renderCommandMenu(shown.commands, send);
  }

  /** Presses a callback button as the user in the chat `target` names ({to} or {chat}); resolves to the failure's description, or null. */
  async function press(user, target, messageId, data) {
    const response = await fetch('/client/press', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user, ...target, message_id: messageId, data }),
    });
    const envelope = await response.json();
    return envelope.ok ? null : envelope.description || `HTTP ${response.status}`;
  }

  window.hearsayChatControls = { inlineKeyboard, renderChatState, toggleMenu, closeMenu, showAnswer, press };
})();
