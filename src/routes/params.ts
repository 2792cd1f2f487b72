// Param types read from a path-to-regexp v8 pattern literal, at compile time only:
// `'/books/:id'` gives `{ id: string }`, `'/files/*path'` gives `{ path: string[] }`, and a param
// inside `{…}` is optional. A pattern typed only as `string` gives the loose `Params`.

/** Params of a match whose pattern is not known at compile time. */
export type Params = Record<string, string | string[] | undefined>;

type IdChar =
  | 'a'
  | 'b'
  | 'c'
  | 'd'
  | 'e'
  | 'f'
  | 'g'
  | 'h'
  | 'i'
  | 'j'
  | 'k'
  | 'l'
  | 'm'
  | 'n'
  | 'o'
  | 'p'
  | 'q'
  | 'r'
  | 's'
  | 't'
  | 'u'
  | 'v'
  | 'w'
  | 'x'
  | 'y'
  | 'z'
  | 'A'
  | 'B'
  | 'C'
  | 'D'
  | 'E'
  | 'F'
  | 'G'
  | 'H'
  | 'I'
  | 'J'
  | 'K'
  | 'L'
  | 'M'
  | 'N'
  | 'O'
  | 'P'
  | 'Q'
  | 'R'
  | 'S'
  | 'T'
  | 'U'
  | 'V'
  | 'W'
  | 'X'
  | 'Y'
  | 'Z'
  | '0'
  | '1'
  | '2'
  | '3'
  | '4'
  | '5'
  | '6'
  | '7'
  | '8'
  | '9'
  | '_'
  | '$';

type ReadName<S extends string, N extends string = ''> = S extends `${infer C}${infer R}`
  ? C extends IdChar
    ? ReadName<R, `${N}${C}`>
    : [N, S]
  : [N, S];

type ReadQuoted<S extends string, N extends string = ''> = S extends `"${infer R}`
  ? [N, R]
  : S extends `\\${infer C}${infer R}`
    ? ReadQuoted<R, `${N}${C}`>
    : S extends `${infer C}${infer R}`
      ? ReadQuoted<R, `${N}${C}`>
      : [N, ''];

type Add<Out, N extends string, V, Depth extends 0[]> = Depth extends [] ? Out & { [K in N]: V } : Out & { [K in N]?: V | undefined };

type Take<Depth extends 0[], Out, V, Read> = Read extends [infer N extends string, infer Rest extends string]
  ? Scan<Rest, Depth, Add<Out, N, V, Depth>>
  : Out;

type Scan<S extends string, Depth extends 0[] = [], Out = {}> = S extends `\\${infer _C}${infer R}`
  ? Scan<R, Depth, Out>
  : S extends `{${infer R}`
    ? Scan<R, [...Depth, 0], Out>
    : S extends `}${infer R}`
      ? Scan<R, Depth extends [0, ...infer T extends 0[]] ? T : [], Out>
      : S extends `:"${infer R}`
        ? Take<Depth, Out, string, ReadQuoted<R>>
        : S extends `:${infer R}`
          ? Take<Depth, Out, string, ReadName<R>>
          : S extends `*"${infer R}`
            ? Take<Depth, Out, string[], ReadQuoted<R>>
            : S extends `*${infer R}`
              ? Take<Depth, Out, string[], ReadName<R>>
              : S extends `${infer _C}${infer R}`
                ? Scan<R, Depth, Out>
                : Out;

type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The params a path-to-regexp pattern captures, read from its literal type. */
export type ParamsOf<P extends string> = string extends P ? Params : Flatten<Scan<P>>;
