// What a message carries besides text, as the page shows it: a photo or sticker as an image, a video, an audio
// file or a voice message with the browser's player, a document as its name, size and a download link, a
// location (or venue) as its coordinates and a map link, a contact as name and number. Files are read through
// the client API (/client/file) as the user downloads them. Built from DOM nodes and textContent only.
'use strict';

(() => {
  const KINDS = ['photo', 'sticker', 'animation', 'video', 'video_note', 'audio', 'voice', 'document', 'venue', 'location', 'contact'];

  function formatSize(bytes) {
    if (typeof bytes !== 'number') return '';
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  }

  function block(className) {
    const element = document.createElement('div');
    element.className = `media ${className}`;
    return element;
  }

  function downloadLink(href, label, fileName) {
    const anchor = document.createElement('a');
    anchor.href = href;
    anchor.textContent = label;
    if (fileName) anchor.download = fileName;
    return anchor;
  }

  function image(src, alt, className) {
    const element = block(className);
    const img = document.createElement('img');
    img.src = src;
    img.alt = alt;
    img.loading = 'lazy';
    element.append(img);
    return element;
  }

  function player(tag, src, className) {
    const element = block(className);
    const media = document.createElement(tag);
    media.controls = true;
    media.preload = 'metadata';
    media.src = src;
    element.append(media);
    return element;
  }

  function documentBlock(file, href) {
    const element = block('media-document');
    const name = document.createElement('span');
    name.className = 'file-name';
    name.textContent = file.file_name || 'file';
    const size = document.createElement('span');
    size.className = 'file-size';
    size.textContent = formatSize(file.file_size);
    element.append(name, size, downloadLink(href, 'Download', file.file_name || 'file'));
    return element;
  }

  function placeBlock(location, venue) {
    const element = block('media-location');
    if (venue) {
      const title = document.createElement('strong');
      title.textContent = venue.title;
      const address = document.createElement('span');
      address.textContent = venue.address;
      element.append(title, address);
    }
    const coordinates = `${location.latitude}, ${location.longitude}`;
    const map = document.createElement('a');
    map.href = `https://www.openstreetmap.org/?mlat=${location.latitude}&mlon=${location.longitude}#map=17/${location.latitude}/${location.longitude}`;
    map.target = '_blank';
    map.rel = 'noopener noreferrer nofollow';
    map.textContent = `📍 ${coordinates}`;
    element.append(map);
    return element;
  }

  function contactBlock(contact) {
    const element = block('media-contact');
    element.textContent = `👤 ${[contact.first_name, contact.last_name].filter(Boolean).join(' ')} · ${contact.phone_number}`;
    return element;
  }

  /** The element for the message's media, or null when it has none; `fileUrl(fileId)` is where a file is read. */
  function mediaElement(message, fileUrl) {
    const kind = KINDS.find((k) => message[k] !== undefined);
    if (!kind) return null;
    const value = message[kind];
    switch (kind) {
      case 'photo': {
        const largest = value[value.length - 1];
        return image(fileUrl(largest.file_id), message.caption || 'Photo', 'media-photo');
      }
      case 'sticker':
        return image(fileUrl(value.file_id), value.emoji ? `Sticker ${value.emoji}` : 'Sticker', 'media-sticker');
      case 'animation':
      case 'video':
      case 'video_note':
        return player('video', fileUrl(value.file_id), 'media-video');
      case 'audio':
      case 'voice':
        return player('audio', fileUrl(value.file_id), 'media-audio');
      case 'document':
        return documentBlock(value, fileUrl(value.file_id));
      case 'venue':
        return placeBlock(value.location, value);
      case 'location':
        return placeBlock(value, null);
      default:
        return contactBlock(value);
    }
  }

  /** A short line for the chat list: the caption, else what the message carries. */
  function mediaPreview(message) {
    if (message.caption) return message.caption;
    if (message.photo) return '📷 Photo';
    if (message.document) return `📄 ${message.document.file_name || 'File'}`;
    if (message.venue) return `📍 ${message.venue.title}`;
    if (message.location) return '📍 Location';
    if (message.contact) return `👤 ${message.contact.first_name}`;
    if (message.sticker) return 'Sticker';
    if (message.video || message.animation) return '🎬 Video';
    if (message.audio || message.voice) return '🎵 Audio';
    return null;
  }

  /** What the page sends for a file the user picked: a photo for an image the service shows, else a document. */
  function uploadField(file) {
    const photo = /^image\/(jpeg|png|gif|webp)$/.test(file.type) && file.size <= 10 * 1024 * 1024;
    return photo ? 'photo' : 'document';
  }

  /** The file's content as base64 (what the client API takes). */
  function readBase64(file) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.addEventListener('load', () => resolve(String(reader.result).replace(/^data:[^,]*,/, '')));
      reader.addEventListener('error', () => reject(reader.error));
      reader.readAsDataURL(file);
    });
  }

  window.hearsayMediaView = { mediaElement, mediaPreview, uploadField, readBase64 };
})();
