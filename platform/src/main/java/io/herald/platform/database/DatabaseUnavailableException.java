package io.herald.platform.database;

/** The database did not answer in time: the request was not completed and may be sent again as it is. */
public class DatabaseUnavailableException extends RuntimeException {

    public DatabaseUnavailableException(String message) {
        super(message, null, false, false);
    }
}
