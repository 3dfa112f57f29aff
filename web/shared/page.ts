// The elements every hosted checkout-style page has (#pay, #message): the
// status line and the one button, plus writing text into an element by id.
export function byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

export type MessageKind = 'info' | 'error' | 'success';

export type PageControls = {
  show(kind: MessageKind, text: string): void;
  setBusy(busy: boolean, label?: string): void;
  isBusy(): boolean;
  button: HTMLButtonElement;
};

export function pageControls(): PageControls {
  const button = byId<HTMLButtonElement>('pay')!;
  const message = byId('message')!;
  let busy = false;
  return {
    button,
    show(kind, text) {
      message.setAttribute('data-kind', kind);
      message.textContent = text;
    },
    setBusy(next, label) {
      busy = next;
      button.disabled = next;
      if (label) button.textContent = label;
    },
    isBusy: () => busy,
  };
}

export function setText(id: string, value: string): void {
  const element = byId(id);
  if (element) element.textContent = value;
}

/** Reports any error of a flow as the generic sentence, keeping the message (the old script's last resort). */
export function somethingWentWrong(error: unknown): string {
  return 'Something went wrong: ' + ((error as Error | null)?.message || String(error));
}
