import type { EngineMessage } from '../../domain/instances/engine.port.js';

/** The documented body of `POST …/messages` for a message (notes §1): text, media by link, or a template. */
export function messageBody(message: EngineMessage): Record<string, unknown> {
  const common = { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.to };
  switch (message.type) {
    case 'text':
      return { ...common, type: 'text', text: { preview_url: false, body: message.text ?? '' } };
    case 'template': {
      const template = message.template!;
      return {
        ...common,
        type: 'template',
        template: { name: template.name, language: { code: template.language }, ...(template.components ? { components: template.components } : {}) },
      };
    }
    case 'audio':
      // Audio takes no caption.
      return { ...common, type: 'audio', audio: { link: message.mediaUrl } };
    case 'document': {
      const filename = decodeURIComponent(new URL(message.mediaUrl!).pathname.split('/').pop() ?? '') || 'document';
      return { ...common, type: 'document', document: { link: message.mediaUrl, filename, ...(message.caption ? { caption: message.caption } : {}) } };
    }
    default:
      return { ...common, type: message.type, [message.type]: { link: message.mediaUrl, ...(message.caption ? { caption: message.caption } : {}) } };
  }
}
