// The storefront's words (`/`): only its bundle carries them (see copy.ts).

export const HOME_COPY = {
  addToMixtape: "Add to Mixtape",
  mixtapeFull: "Mixtape full",
  alreadyInMixtape: "Already in your mixtape",
  inMixtape: "In Mixtape",
  added: (title: string) => `${title} added to your mixtape.`,
  play: "Play preview",
  pause: "Pause preview",
  chooseDesign: "Choose Your Cover Design",
  deckTitle: "Virtual Mixtape Deck",
  tracksLoaded: (n: number, max: number) => `Tracks Loaded: ${n} / ${max}`,
  moveUp: "Move Up",
  moveDown: "Move Down",
  remove: "Remove",
  reviewOrder: "Review Order",
  emptyHint: (name: string) =>
    `Choose your favorite tracks. Place your order and ${name} will mix your virtual tape and send it to you!`,
  notePlaceholder: "The System can't stop your signal...",
  noteLabel: (name: string) => `Message to ${name} (Special instructions)`,
  noteTooLong: (max: number) => `The note is limited to ${max} characters.`,
  saveOptions: "Save options",
  optionsSaved: "Options saved",
  saved: "Saved",
  noteControlCharacters: "The note contains characters that cannot be stored. Please retype it.",
  codename: "Codename",
  coverNo: "No.",
  mixtapeFullReason: "Mixtape full: remove a track to add another",
  steps: { label: "Order steps", songs: "Songs", cover: "Cover", options: "Options", review: "Review" },
  /** The placed order's card (`/?placed=CODE`). */
  placedHeading: "Order placed",
  placedText: (name: string) => `Your order is on its way to ${name}.`,
  /** Beside a retired song in the deck and the review, and a retired design still chosen. */
  retiredMark: "Retired",
  /** The placed order's own page: its timeline, the conversation, and later the tape. */
  openPlaced: "Open your order",
} as const;

/** Each option's label (the options panel, and wherever an order's options are listed). */
export const TOGGLE_COPY = {
  Aikavoice: (name: string) => `Add ${name} voice`,
  djIntro: () => "Include Custom Intro",
  retronoise: () => "Add cassette noise",
} as const;

/** Why a deck edit is refused: the deck's rules (domain/deck.ts) run in the storefront's bundle too. */
export const DECK_COPY = {
  unknownSong: "That song is not in the catalogue.",
  full: (max: number) => `Your mixtape is full: ${max} tracks at most.`,
  duplicate: "That song is already in your mixtape.",
  notInDeck: "That song is not in your mixtape.",
  moveOutOfRange: "That track cannot move there.",
  unknownDesign: "That cover design does not exist.",
  retired: (title: string) => `"${title}" is retired: it is no longer in the library.`,
  designRetired: (name: string) => `The design "${name}" is retired: choose another cover.`,
} as const;
