package ng.payments.cardhost;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The development ISO 8583 host (shared/spec/card-network.md, "The development host"), started by
 * deploy/card-host/card-host.sh, which sets every variable read here. A development and test tool:
 * it runs on jPOS (AGPL), which never goes into the platform's images.
 */
public final class CardHost {
    private CardHost() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(env("CARD_HOST_PORT"));
        int controlPort = Integer.parseInt(env("CARD_HOST_CONTROL_PORT"));
        Path dataDir = Files.createDirectories(Path.of(env("CARD_HOST_DATA_DIR")));
        PinBlocks pinBlocks = new PinBlocks(env("CARD_HOST_ZONE_PIN_KEY"));
        Catalogue catalogue = Catalogue.load(Path.of(env("CARD_HOST_CATALOGUE")));

        Ledger ledger = new Ledger(dataDir.resolve("journal.tsv"));
        Faults faults = new Faults();
        MessageLog messages = new MessageLog();
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2);
        Responder responder = new Responder(new Authoriser(catalogue, pinBlocks, ledger), ledger);
        IsoEndpoint endpoint = new IsoEndpoint(port, new RequestListener(responder, faults, messages, scheduler), scheduler);

        // The control API first: whoever waits for the ISO port can use both once it answers.
        new ControlApi(faults, endpoint, messages, ledger).start(controlPort);
        endpoint.open();
        log("ISO 8583 on 127.0.0.1:" + port + ", control API on 127.0.0.1:" + controlPort);
    }

    static void log(String line) {
        System.out.println(Instant.now() + " " + line);
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) throw new IllegalStateException(name + " is not set");
        return value;
    }
}
