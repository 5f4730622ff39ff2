package io.herald.query.stats;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Counts the SQL statements sent through a data source: every statement the JDBC driver is asked
 * to prepare or create (and every prepareCall), which is what reaches PostgreSQL.
 */
final class StatementCounter {

    private static final Set<String> STATEMENTS = Set.of("prepareStatement", "createStatement", "prepareCall");

    private final AtomicInteger statements = new AtomicInteger();
    private final DataSource counted;

    StatementCounter(DataSource target) {
        this.counted = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = invoke(target, method, args);
                    return result instanceof Connection connection ? counting(connection) : result;
                });
    }

    DataSource dataSource() {
        return counted;
    }

    int statements() {
        return statements.get();
    }

    void reset() {
        statements.set(0);
    }

    private Connection counting(Connection connection) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (STATEMENTS.contains(method.getName())) {
                        statements.incrementAndGet();
                    }
                    return invoke(connection, method, args);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
