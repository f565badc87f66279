/** Messages sent through the contact form, kept in memory (a real site would mail or store them). */
export interface ContactMessage {
  name: string;
  email: string;
  message: string;
  received: string;
}

const inbox: ContactMessage[] = [];

export function receiveMessage(message: Omit<ContactMessage, 'received'>): void {
  inbox.push({ ...message, received: new Date().toISOString() });
}

export function messages(): readonly ContactMessage[] {
  return inbox;
}
