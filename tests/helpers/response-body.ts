// An answer's body as the tests read it: parsed JSON, the text itself when it is not JSON, null when empty.
export async function readBody(res: Response): Promise<{ body: any; text: string }> {
  const text = await res.text();
  try {
    return { body: text ? JSON.parse(text) : null, text };
  } catch {
    return { body: text, text };
  }
}
