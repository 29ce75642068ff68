/**
 * A reader for the small part of Python's pickle protocol 0 that PyTables uses to keep pandas' column labels in HDF5
 * attributes (`values_block_0_kind`, `non_index_axes`): lists and tuples of text and numbers. Protocol 0 is text, one
 * opcode a character, arguments to the end of the line. Anything else (a class, a newer protocol) is refused by name,
 * never guessed at: we only need the labels, and a pickle we do not understand must not be half-read.
 */

export type PickleValue = string | number | bigint | boolean | null | PickleValue[];

export class PickleError extends Error {
  override readonly name = 'PickleError';
}

const MARK = Symbol('mark');
type StackItem = PickleValue | typeof MARK;

/** Python's raw-unicode-escape, as protocol 0 writes `V` strings: `\uXXXX` and `\UXXXXXXXX`, the rest as is. */
function rawUnicode(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})/g, (_, four: string, eight: string) =>
    String.fromCodePoint(Number.parseInt(four ?? eight, 16)),
  );
}

/** Python's repr of a byte string (`S'…'` in protocol 0): quotes and the common escapes. */
function quotedBytes(text: string): string {
  const quote = text[0];
  if ((quote !== "'" && quote !== '"') || text[text.length - 1] !== quote) throw new PickleError('Bad S argument.');
  return text.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|[\\'"nrt])/g, (_, code: string) => {
    if (code[0] === 'x') return String.fromCharCode(Number.parseInt(code.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[code] ?? code;
  });
}

export function readPickle(text: string): PickleValue {
  const stack: StackItem[] = [];
  const memo = new Map<string, PickleValue>();
  let at = 0;
  const line = () => {
    const end = text.indexOf('\n', at);
    if (end < 0) throw new PickleError('The pickle ends inside an argument.');
    const argument = text.slice(at, end);
    at = end + 1;
    return argument;
  };
  const popToMark = (): PickleValue[] => {
    const start = stack.lastIndexOf(MARK);
    if (start < 0) throw new PickleError('No mark on the stack.');
    const items = stack.splice(start) as PickleValue[];
    return items.slice(1);
  };
  const top = (): PickleValue => {
    const value = stack[stack.length - 1];
    if (value === undefined || value === MARK) throw new PickleError('Empty stack.');
    return value;
  };
  while (at < text.length) {
    const op = text[at++];
    switch (op) {
      case '(':
        stack.push(MARK);
        break;
      case 'V':
        stack.push(rawUnicode(line()));
        break;
      case 'S':
        stack.push(quotedBytes(line()));
        break;
      case 'I': {
        const argument = line();
        // Protocol 0 writes True and False as I01 / I00.
        stack.push(argument === '01' ? true : argument === '00' ? false : Number(argument));
        break;
      }
      case 'L': {
        const value = BigInt(line().replace(/L$/, ''));
        stack.push(
          value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value,
        );
        break;
      }
      case 'F':
        stack.push(Number(line()));
        break;
      case 'N':
        stack.push(null);
        break;
      case 'p':
        memo.set(line(), top());
        break;
      case 'g': {
        const key = line();
        if (!memo.has(key)) throw new PickleError(`Memo ${key} was never put.`);
        stack.push(memo.get(key)!);
        break;
      }
      case 't':
        stack.push(popToMark());
        break;
      case 'l':
        stack.push(popToMark());
        break;
      case 'a': {
        const item = stack.pop();
        const list = top();
        if (item === undefined || item === MARK || !Array.isArray(list))
          throw new PickleError('append without a list.');
        list.push(item);
        break;
      }
      case '.': {
        if (stack.length !== 1 || stack[0] === MARK) throw new PickleError('The pickle stops with a broken stack.');
        return stack[0] as PickleValue;
      }
      case '\n':
        break;
      default:
        throw new PickleError(
          op === '\x80'
            ? 'A pickle of protocol 2 or later; only protocol 0 (as PyTables writes labels) is read.'
            : `Pickle opcode ${JSON.stringify(op)} is not one a list of labels uses.`,
        );
    }
  }
  throw new PickleError('The pickle has no stop.');
}
