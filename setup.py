"""Packaging for ldp_truth: everything is read from settings.ini (nbdev 2 layout)."""
from configparser import ConfigParser
from pathlib import Path

import setuptools

here = Path(__file__).parent
config = ConfigParser(delimiters=["="])
config.read(here / "settings.ini", encoding="utf-8")
cfg = config["DEFAULT"]

licenses = {"apache2": "Apache-2.0"}
statuses = ["1 - Planning", "2 - Pre-Alpha", "3 - Alpha", "4 - Beta", "5 - Production/Stable"]
lic = licenses[cfg["license"]]


def _reqs(key: str) -> list:
    return cfg.get(key, "").split()


setuptools.setup(
    name=cfg["lib_name"],
    version=cfg["version"],
    description=cfg["description"],
    long_description=(here / "README.md").read_text(encoding="utf-8") if (here / "README.md").exists() else "",
    long_description_content_type="text/markdown",
    author=cfg["author"],
    author_email=cfg["author_email"],
    url=cfg["git_url"],
    license=lic,
    keywords=cfg["keywords"],
    classifiers=[
        "Development Status :: " + statuses[int(cfg["status"])],
        "Intended Audience :: " + cfg["audience"],
        "Natural Language :: " + cfg["language"],
        "Programming Language :: Python :: 3",
    ],
    packages=setuptools.find_packages(include=["ldp_truth", "ldp_truth.*"]),
    include_package_data=True,
    package_data={"ldp_truth": ["*.js", "*.html"]},  # the browser client and the task page template
    python_requires=">=" + cfg["min_python"],
    install_requires=_reqs("requirements"),
    extras_require={
        "dev": _reqs("dev_requirements"),
        "secure": ["opendp==0.16.*"],
        "dask": ["dask[distributed]"],
        "collect": _reqs("collect_requirements"),  # the collection server: ldp-truth collect
    },
    entry_points={
        "console_scripts": cfg.get("console_scripts", "").split(),
        "nbdev": [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"],
    },
    zip_safe=False,
)
