# syntax=docker/dockerfile:1
# Herald's image: built from the source tree in a JDK stage, run from Spring Boot's jar layers on a
# JRE as an unprivileged user. A -Pproduction build: no embedded PostgreSQL, an external one is
# required (docker-compose.yml starts one). Build: docker build -t herald:0.1.0 .

FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY . .
# the Maven repository stays in a build cache, not in a layer; .git is there so /actuator/info names the commit
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -Pproduction -pl deploy -am package -DskipTests \
 && java -Djarmode=tools -jar deploy/target/herald.jar extract --layers --launcher --destination /layers

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 herald \
 && useradd --system --uid 10001 --gid herald --home-dir /app --no-create-home --shell /usr/sbin/nologin herald
WORKDIR /app
# least to most often changed: a new Herald version usually replaces only the last layer
COPY --from=build /layers/dependencies/ ./
COPY --from=build /layers/spring-boot-loader/ ./
COPY --from=build /layers/snapshot-dependencies/ ./
COPY --from=build /layers/application/ ./
USER 10001:10001
ENV PORT=8080 \
    HERALD_DATA_DIR=/tmp/herald-data \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=50 -Daxoniq.update-checker.disabled=true"
EXPOSE 8080
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
