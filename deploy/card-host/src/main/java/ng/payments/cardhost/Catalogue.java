package ng.payments.cardhost;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The test-card catalogue (docs/test-cards.json): what the host answers for each card. */
final class Catalogue {
    /** The PIN of a card the catalogue does not list. */
    static final String DEFAULT_PIN = "1234";

    record Card(String scenario, String pin) {}

    private final Map<String, Card> cards;

    private Catalogue(Map<String, Card> cards) {
        this.cards = cards;
    }

    static Catalogue load(Path file) throws IOException {
        Map<String, Card> cards = new HashMap<>();
        for (Object entry : (List<?>) Json.parse(Files.readString(file))) {
            Map<?, ?> card = (Map<?, ?>) entry;
            cards.put(String.valueOf(card.get("cardNumber")),
                    new Card(String.valueOf(card.get("scenario")), String.valueOf(card.get("pin"))));
        }
        return new Catalogue(cards);
    }

    /** The response code the card's scenario calls for: {@code 00} for a card not listed or one that is not to fail. */
    String scenarioCode(String pan) {
        Card card = cards.get(pan);
        if (card == null) return "00";
        return switch (card.scenario()) {
            case "declined" -> "05";
            case "insufficient funds" -> "51";
            default -> "00";
        };
    }

    String pinOf(String pan) {
        Card card = cards.get(pan);
        return card == null ? DEFAULT_PIN : card.pin();
    }
}
