# Fit rpart on a CSV and dump the tree as JSON, every number at full precision.
#
# Reference only (benchmarks/rpart_parity.py drives it); needs R and rpart, nothing else.
#
#   Rscript benchmarks/rpart_dump.R export NAME OUT.csv
#       writes one of R's data sets (see `datasets` below) as CSV: the response last,
#       missing cells empty, numbers in the shortest text that reads back to the same double.
#   Rscript benchmarks/rpart_dump.R fit DATA.csv OUT.json [key=value ...]
#       keys: target (default: last column), method (class|anova), split (gini|information),
#       minsplit, minbucket, cp, maxdepth, maxcompete, maxsurrogate, usesurrogate,
#       surrogatestyle, factors (comma-separated columns read as categorical even if numeric),
#       weights (a column of case weights, left out of the predictors: rpart's weights =),
#       exposure (method poisson: rpart's cbind(exposure, target); exp: Surv(exposure, target)),
#       shrink (poisson, exp: parms = list(shrink =)),
#       prior (class priors in class order, comma-separated), loss (the loss matrix row by row,
#       comma-separated; rows the true class): rpart's parms, cost (feature=factor pairs,
#       comma-separated: rpart's cost =, unnamed predictors 1),
#       summary (a file to write summary(fit) to, at 15 digits),
#       predict, predout (new rows as CSV; predict(fit, type = "class" | "vector") written there),
#       xgroups (a file of one fold number per row: rpart's xval = that vector, so that the
#       cptable gains xerror and xstd on the same folds as infotree's; default xval = 0).  Categorical levels and classes are numbered in order of first
#       appearance in the file (infotree's order, which decides rpart's ties and directions).
#
# JSON: {"controls": {...}, "classes": [...], "features": [...], "kinds": {...},
#        "root_risk": x, "alpha": x, "cptable": [[cp, nsplit, rel error], ...],
#        "nodes": [ {node, parent, depth, var, n, wt, dev, complexity, yval,
#                    counts {class: w} | mean, primary, competitors [...], surrogates [...]} ]}
# in rpart's frame order (depth first, left before right).  A split is
# {var, count, kind: "threshold", threshold, ncat, left_op ("<" or ">="), improve[, agree, adj]}
# or {var, count, kind: "subset", left [...], right [...], absent [...], improve[, agree, adj]};
# for a surrogate `improve` is rpart's agreement (fit$splits[, "improve"]), repeated as `agree`.
# Doubles are strings printed with %.17g, so they read back to the same double.

suppressPackageStartupMessages(library(rpart))

g17 <- function(x) sprintf("%.17g", x)
js <- function(s) {
    if (!length(s)) return(character(0))
    s <- gsub("\\\\", "\\\\\\\\", s)
    s <- gsub("\"", "\\\\\"", s)
    paste0("\"", s, "\"")
}
jarr <- function(items) paste0("[", paste(items, collapse = ", "), "]")
jobj <- function(keys, values) {
    if (!length(keys)) return("{}")
    paste0("{", paste(js(keys), values, sep = ": ", collapse = ", "), "}")
}

datasets <- function(name) {
    switch(name,
        kyphosis = kyphosis[, c("Age", "Number", "Start", "Kyphosis")],
        iris = iris,
        stagec = {
            d <- stagec[, c("age", "eet", "g2", "grade", "gleason", "ploidy")]
            d$eet <- ifelse(is.na(stagec$eet), NA, ifelse(stagec$eet == 1, "no", "yes"))
            d$progstat <- ifelse(stagec$pgstat == 1, "Prog", "No")
            d
        },
        cu.summary = {
            d <- cu.summary[, c("Price", "Country", "Mileage", "Type", "Reliability")]
            d$Reliability <- as.character(d$Reliability)
            d
        },
        solder = solder[, c("Opening", "Mask", "PadType", "Panel", "skips", "Solder")],
        car90 = {
            keep <- c("Country", "Disp", "HP", "Price", "Tank", "Weight", "Mileage",
                      "Reliability", "Type")
            d <- car90[!is.na(car90$Type), keep]
            d$Type <- as.character(d$Type)
            d
        },
        airquality = airquality[, c("Solar.R", "Wind", "Temp", "Month", "Day", "Ozone")],
        # regression (anova) sets: numeric and categorical predictors, some with missing values
        car90reg = car90[, c("Country", "Disp", "HP", "Tank", "Weight", "Reliability", "Type",
                             "Mileage", "Price")],
        mtcars = mtcars,
        cars = cars,
        stackloss = stackloss,
        swiss = swiss,
        # 1e9 plus multiples of 1e-7, as decimal text: more digits than a double holds
        offset = data.frame(x = 1:10, y = paste0("1000000000.000000", c(0, 4, 6, 5, 6, 3, 4, 1, 4, 8))),
        Boston = {
            if (!requireNamespace("MASS", quietly = TRUE)) stop("MASS is not installed")
            MASS::Boston
        },
        # issue 35's second round (per-variable costs, rpart's routing): MASS sets
        pima = MASS::Pima.tr,
        pimate = MASS::Pima.te,
        birthwt = {
            d <- MASS::birthwt[, c("age", "lwt", "race", "smoke", "ptl", "ht", "ui", "ftv")]
            d$race <- c("white", "black", "other")[d$race]
            d$low <- ifelse(MASS::birthwt$low == 1, "low", "normal")
            d
        },
        biopsy = MASS::biopsy[, -1],
        # issue 35's Poisson and exp methods: counts over an exposure, survival times
        insurance = {
            d <- MASS::Insurance
            data.frame(District = as.character(d$District), Group = as.character(d$Group),
                       Age = as.character(d$Age), Holders = d$Holders, Claims = d$Claims)
        },
        warpbreaks = warpbreaks[, c("wool", "tension", "breaks")],
        lungpois = {
            d <- survival::lung[, c("age", "sex", "ph.ecog", "ph.karno", "pat.karno", "meal.cal", "wt.loss", "time")]
            d$events <- survival::lung$status - 1
            d
        },
        lung = survival::lung[, c("age", "sex", "ph.ecog", "ph.karno", "pat.karno", "meal.cal", "wt.loss", "time",
                                  "status")],
        aml = {
            d <- survival::aml
            data.frame(x = as.character(d$x), time = d$time, status = d$status)
        },
        ovarian = survival::ovarian[, c("age", "resid.ds", "rx", "ecog.ps", "futime", "fustat")],
        rock = rock,
        # a split whose risk decrease is exactly cp * root risk for cp = 0.29 (29 of 100)
        cptie = data.frame(g = c(rep("p", 29), rep("q", 171)),
                           y = c(rep("a", 100), rep("b", 100))),
        # categorical surrogates with 0, 1 and 2 rows against a perfect primary split
        catsurrogate = {
            x1 <- 1:40
            g <- ifelse(x1 <= 20, "lo", "hi")
            h <- g; h[1:2] <- "hi"
            k <- g; k[1] <- "hi"
            data.frame(x1, g, h, k, y = ifelse(x1 <= 20, "a", "b"))
        },
        stop("unknown data set ", name))
}

num_text <- function(x) {
    out <- rep("", length(x))
    ok <- !is.na(x)
    out[ok] <- sprintf("%.15g", x[ok])
    bad <- ok & suppressWarnings(as.numeric(out)) != x
    bad[is.na(bad)] <- FALSE
    out[bad] <- sprintf("%.17g", x[bad])
    out
}

export <- function(name, path) {
    d <- datasets(name)
    cols <- lapply(d, function(v) {
        if (is.numeric(v) && !is.factor(v)) num_text(v)
        else ifelse(is.na(v), "", as.character(v))
    })
    cols <- as.data.frame(cols, stringsAsFactors = FALSE, check.names = FALSE)
    write.table(cols, path, sep = ",", quote = FALSE, row.names = FALSE, na = "")
}

first_seen <- function(v) factor(v, levels = unique(v[!is.na(v)]))

read_data <- function(path, factors) {
    raw <- read.csv(path, colClasses = "character", na.strings = c("", "?"),
                    check.names = FALSE, strip.white = TRUE)
    for (col in names(raw)) {
        v <- raw[[col]]
        nums <- suppressWarnings(as.numeric(v))
        numeric <- !(col %in% factors) && all(is.na(v) == is.na(nums)) && any(!is.na(v))
        raw[[col]] <- if (numeric) nums else first_seen(v)
    }
    raw
}

split_json <- function(fit, row, surrogate) {
    s <- fit$splits[row, , drop = FALSE]
    var <- rownames(fit$splits)[row]
    ncat <- s[1, "ncat"]
    keys <- c("var", "count")
    vals <- c(js(var), as.character(s[1, "count"]))
    if (abs(ncat) == 1 && !(var %in% names(attr(fit, "xlevels")))) {
        keys <- c(keys, "kind", "threshold", "ncat", "left_op")
        vals <- c(vals, js("threshold"), js(g17(s[1, "index"])), as.character(ncat),
                  js(if (ncat < 0) "<" else ">="))
    } else {
        lev <- attr(fit, "xlevels")[[var]]
        dirs <- fit$csplit[s[1, "index"], seq_along(lev)]
        keys <- c(keys, "kind", "left", "right", "absent")
        vals <- c(vals, js("subset"), jarr(js(lev[dirs == 1])), jarr(js(lev[dirs == 3])),
                  jarr(js(lev[dirs == 2])))
    }
    keys <- c(keys, "improve")
    vals <- c(vals, js(g17(s[1, "improve"])))
    if (surrogate) {
        keys <- c(keys, "agree", "adj")
        vals <- c(vals, js(g17(s[1, "improve"])), js(g17(s[1, "adj"])))
    }
    jobj(keys, vals)
}

fit_and_dump <- function(path, out, opts) {
    get <- function(key, default) if (is.null(opts[[key]])) default else opts[[key]]
    factors <- strsplit(get("factors", ""), ",", fixed = TRUE)[[1]]
    d <- read_data(path, factors)
    target <- get("target", names(d)[ncol(d)])
    method <- get("method", "class")
    if (method == "class") d[[target]] <- first_seen(as.character(d[[target]]))
    # as.character would round a double to 15 digits (1000000000.0000001 -> "1e+09")
    else if (!is.numeric(d[[target]])) d[[target]] <- as.numeric(as.character(d[[target]]))
    wcol <- get("weights", "")
    ecol <- get("exposure", "")  # poisson: cbind(exposure, target); exp: Surv(exposure, target)
    features <- setdiff(names(d), c(target, wcol, ecol))
    response <- if (method == "exp") paste0("survival::Surv(`", ecol, "`, `", target, "`)")
                else if (method == "poisson" && nzchar(ecol)) paste0("cbind(`", ecol, "`, `", target, "`)")
                else paste0("`", target, "`")
    form <- as.formula(paste0(response, " ~ ", paste0("`", features, "`", collapse = " + ")))
    minsplit <- as.integer(get("minsplit", "20"))
    control <- rpart.control(
        minsplit = minsplit,
        minbucket = as.integer(get("minbucket", as.character(round(minsplit / 3)))),
        cp = as.numeric(get("cp", "0.01")),
        maxcompete = as.integer(get("maxcompete", "4")),
        maxsurrogate = as.integer(get("maxsurrogate", "5")),
        usesurrogate = as.integer(get("usesurrogate", "2")),
        surrogatestyle = as.integer(get("surrogatestyle", "0")),
        maxdepth = as.integer(get("maxdepth", "30")),
        xval = if (nzchar(get("xgroups", ""))) as.integer(scan(get("xgroups", ""), quiet = TRUE)) else 0L)
    parms <- if (method == "class") list(split = get("split", "gini"))
             else if (nzchar(get("shrink", ""))) list(shrink = as.numeric(get("shrink", ""))) else NULL
    # prior: comma-separated, in class order; loss: comma-separated, row by row (true class)
    if (nzchar(get("prior", ""))) parms$prior <- as.numeric(strsplit(get("prior", ""), ",")[[1]])
    if (nzchar(get("loss", ""))) {
        v <- as.numeric(strsplit(get("loss", ""), ",")[[1]])
        parms$loss <- matrix(v, nrow = round(sqrt(length(v))), byrow = TRUE)
    }
    # cost: feature=factor pairs, comma-separated (rpart's cost =, one per predictor; others 1)
    cost <- rep(1, length(features))
    for (pair in strsplit(get("cost", ""), ",", fixed = TRUE)[[1]]) {
        kv <- strsplit(pair, "=", fixed = TRUE)[[1]]
        cost[match(kv[1], features)] <- as.numeric(kv[2])
    }
    if (nzchar(wcol)) d$.w <- as.numeric(as.character(d[[wcol]])) else d$.w <- rep(1, nrow(d))
    fit <- if (is.null(parms)) rpart(form, data = d, method = method, control = control, weights = .w, cost = cost)
           else rpart(form, data = d, method = method, control = control, parms = parms, weights = .w, cost = cost)
    # predict: a CSV of new rows (same columns); predout: where to write predict(type =
    # "class" | "vector"), one a line (numbers at %.17g); a level the training data lacks is NA
    if (nzchar(get("predict", ""))) {
        nd <- read.csv(get("predict", ""), colClasses = "character", na.strings = c("", "?"),
                       check.names = FALSE, strip.white = TRUE)
        for (col in features) {
            nd[[col]] <- if (is.factor(d[[col]])) factor(nd[[col]], levels = levels(d[[col]]))
                         else as.numeric(nd[[col]])
        }
        p <- predict(fit, nd, type = if (method == "class") "class" else "vector")
        writeLines(if (method == "class") as.character(p) else g17(p), get("predout", ""))
    }
    summary_file <- get("summary", "")
    if (nzchar(summary_file)) {
        old <- options(digits = 15, width = 150)
        capture <- capture.output(summary(fit), print(fit$splits), print(fit$frame),
                                  if (!is.null(fit$csplit)) print(fit$csplit))
        writeLines(capture, summary_file)
        options(old)
    }

    ff <- fit$frame
    ids <- as.integer(rownames(ff))
    leaf <- ff$var == "<leaf>"
    index <- cumsum(c(1L, ff$ncompete + ff$nsurrogate + !leaf))
    classes <- attr(fit, "ylevels")
    nodes <- character(nrow(ff))
    for (i in seq_len(nrow(ff))) {
        keys <- c("node", "parent", "depth", "var", "n", "wt", "dev", "complexity", "yval")
        vals <- c(ids[i], if (ids[i] == 1L) "null" else ids[i] %/% 2L,
                  floor(log2(ids[i])), js(as.character(ff$var[i])), ff$n[i],
                  js(g17(ff$wt[i])), js(g17(ff$dev[i])), js(g17(ff$complexity[i])),
                  if (method == "class") js(classes[ff$yval[i]]) else js(g17(ff$yval[i])))
        if (method == "class") {
            counts <- ff$yval2[i, 1L + seq_along(classes)]
            keys <- c(keys, "counts")
            vals <- c(vals, jobj(classes, js(g17(counts))))
        } else {
            keys <- c(keys, "mean")
            vals <- c(vals, js(g17(ff$yval[i])))
        }
        if (!leaf[i]) {
            first <- index[i]
            comp <- if (ff$ncompete[i] > 0) first + seq_len(ff$ncompete[i]) else integer(0)
            surr <- if (ff$nsurrogate[i] > 0)
                        first + ff$ncompete[i] + seq_len(ff$nsurrogate[i]) else integer(0)
            keys <- c(keys, "primary", "competitors", "surrogates")
            vals <- c(vals, split_json(fit, first, FALSE),
                      jarr(vapply(comp, function(r) split_json(fit, r, FALSE), "")),
                      jarr(vapply(surr, function(r) split_json(fit, r, TRUE), "")))
        }
        nodes[i] <- jobj(keys, vals)
    }
    cpt <- fit$cptable
    cprows <- vapply(seq_len(nrow(cpt)), function(r)
        jarr(c(js(g17(cpt[r, "CP"])), cpt[r, "nsplit"], js(g17(cpt[r, "rel error"])),
               if (ncol(cpt) == 5L) c(js(g17(cpt[r, "xerror"])), js(g17(cpt[r, "xstd"]))))), "")
    ctl <- fit$control
    ctl_keys <- c("minsplit", "minbucket", "cp", "maxcompete", "maxsurrogate", "usesurrogate",
                  "surrogatestyle", "maxdepth")
    ctl_vals <- vapply(ctl_keys, function(k) js(g17(ctl[[k]])), "")
    kinds <- vapply(features, function(f) if (is.factor(d[[f]])) js("categorical")
                                          else js("numeric"), "")
    root_risk <- ff$dev[1]
    top <- jobj(
        c("rpart_version", "method", "split", "target", "classes", "features", "kinds",
          "controls", "root_risk", "alpha", "cptable", "nodes"),
        c(js(as.character(packageVersion("rpart"))), js(method),
          js(if (method == "class") get("split", "gini") else ""), js(target),
          if (method == "class") jarr(js(classes)) else "[]", jarr(js(features)),
          jobj(features, kinds), jobj(ctl_keys, ctl_vals), js(g17(root_risk)),
          js(g17(ctl$cp * root_risk)), jarr(cprows),
          paste0("[\n  ", paste(nodes, collapse = ",\n  "), "\n]")))
    writeLines(top, out)
}

args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 3 && args[1] == "export") {
    export(args[2], args[3])
} else if (length(args) >= 3 && args[1] == "fit") {
    kv <- args[-(1:3)]
    opts <- list()
    for (a in kv) {
        eq <- regexpr("=", a, fixed = TRUE)
        if (eq < 1) stop("expected key=value, got ", a)
        opts[[substr(a, 1, eq - 1)]] <- substr(a, eq + 1, nchar(a))
    }
    fit_and_dump(args[2], args[3], opts)
} else {
    stop("usage: rpart_dump.R export NAME OUT.csv | fit DATA.csv OUT.json [key=value ...]")
}
