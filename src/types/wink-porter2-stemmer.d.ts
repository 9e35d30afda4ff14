// The package ships no types: it exports one function, the Porter2 (Snowball English) stem of a lower-case word.
declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string;
  export default stem;
}
